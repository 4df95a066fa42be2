import {
  describeClockContract,
  describeIdGeneratorContract,
  describeTokenGeneratorContract,
} from "../contracts/runtime.contract.js";
import { ManualClock, SequentialIdGenerator, SequentialTokenGenerator } from "./runtime-doubles.js";

describeClockContract(() => new ManualClock());
describeIdGeneratorContract(() => new SequentialIdGenerator());
describeTokenGeneratorContract(() => new SequentialTokenGenerator());
