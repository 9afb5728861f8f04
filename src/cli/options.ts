/** Parsers for CLI option values that fail with a clear message instead of passing NaN along. */
import { InvalidArgumentError } from "commander";

export function parseIntegerOption(flag: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || n < min || n > max) {
      throw new InvalidArgumentError(`${flag} must be an integer between ${min} and ${max}, got '${value}'.`);
    }
    return n;
  };
}
