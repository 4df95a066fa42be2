import type { Clock } from "@service-api/ports";

export class SystemClock implements Clock {
  nowSeconds(): number {
    return Math.floor(Date.now() / 1000);
  }

  nowMilliseconds(): number {
    return Date.now();
  }
}
