import { describeClockContract, describeIdGeneratorContract } from "../contracts/runtime.contract.js";
import { ManualClock, SequentialIdGenerator } from "./runtime-doubles.js";

describeClockContract(() => new ManualClock());
describeIdGeneratorContract(() => new SequentialIdGenerator());
