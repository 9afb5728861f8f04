/**
 * JQL error wording, in one place. Jira answers every bad query with a 400 ErrorCollection whose
 * errorMessages hold one sentence per problem. Syntax errors name the line and character (both counted
 * from 1); Cloud words the "expecting a value" family "Error in JQL Query:" and the rest "Error in the
 * JQL Query:", as captured responses show.
 */
import { type ApiError, jiraError } from "../../api-error.ts";

const SYNTAX = "Error in the JQL Query:";
const VALUE_SYNTAX = "Error in JQL Query:";

/** Where an offset is, as Jira says it: `(line 1, character 11)`. */
export function place(text: string, pos: number): string {
  const before = text.slice(0, pos);
  const line = before.split("\n").length;
  const column = pos - (before.lastIndexOf("\n") + 1) + 1;
  return `(line ${line}, character ${column})`;
}

/** The 400 for one or more JQL problems. */
export function jqlError(messages: string[]): ApiError {
  return jiraError(400, messages);
}

export const syntax = {
  unclosedString: (text: string, pos: number, value: string) =>
    `${SYNTAX} The quoted string '${value}' has not been completed. ${place(text, pos)}`,
  reservedChar: (text: string, pos: number, char: string) =>
    `${SYNTAX} The character '${char}' is a reserved JQL character. You must enclose it in a string or use the escape '\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}' instead. ${place(text, pos)}`,
  reservedWord: (text: string, pos: number, word: string) =>
    `${SYNTAX} '${word}' is a reserved JQL word. You must surround it in quotation marks to use it in a query. ${place(text, pos)}`,
  fieldAtEnd: () => `${SYNTAX} Expecting a field name at the end of the query.`,
  field: (text: string, pos: number, got: string) =>
    `${SYNTAX} Expecting a field name but got '${got}'. ${place(text, pos)}`,
  operatorAtEnd: () => `${SYNTAX} Expecting operator before the end of the query. ${VALID_OPERATORS}`,
  operator: (text: string, pos: number, got: string) =>
    `${SYNTAX} Expecting operator but got '${got}'. ${VALID_OPERATORS} ${place(text, pos)}`,
  valueAtEnd: () => `${VALUE_SYNTAX} Expecting either a value, list or function before the end of the query.`,
  value: (text: string, pos: number, got: string) =>
    `${VALUE_SYNTAX} Expecting either a value, list or function but got '${got}'. You must surround '${got}' in quotation marks to use it as a value. ${place(text, pos)}`,
  closeAtEnd: () => `${SYNTAX} Expecting ')' before the end of the query.`,
  close: (text: string, pos: number, got: string) =>
    `${SYNTAX} Expecting ')' but got '${got}'. ${place(text, pos)}`,
  andOr: (text: string, pos: number, got: string) =>
    `${SYNTAX} Expecting either 'OR' or 'AND' but got '${got}'. ${place(text, pos)}`,
  byAtEnd: () => `${SYNTAX} Expecting 'BY' before the end of the query.`,
  by: (text: string, pos: number, got: string) =>
    `${SYNTAX} Expecting 'BY' but got '${got}'. ${place(text, pos)}`,
  sortEnd: (text: string, pos: number, got: string) =>
    `${SYNTAX} Expecting either 'ASC', 'DESC' or ',' but got '${got}'. ${place(text, pos)}`,
};

const VALID_OPERATORS =
  "The valid operators are '=', '!=', '<', '>', '<=', '>=', '~', '!~', 'IN', 'NOT IN', 'IS' and 'IS NOT'.";

const DATE_FORMATS =
  "Valid formats include: 'yyyy/MM/dd HH:mm', 'yyyy-MM-dd HH:mm', 'yyyy/MM/dd', 'yyyy-MM-dd', or a period format e.g. '-5d', '4w 2d'.";

export const semantic = {
  unbounded: "Unbounded JQL queries are not allowed here. Please add a search restriction to your query.",
  noField: (field: string) => `Field '${field}' does not exist or you do not have permission to view it.`,
  noValue: (value: string, field: string) => `The value '${value}' does not exist for the field '${field}'.`,
  noId: (value: string, field: string) =>
    `A value with ID '${value}' does not exist for the field '${field}'.`,
  noIssue: (key: string, field: string) => `An issue with key '${key}' does not exist for field '${field}'.`,
  badKey: (key: string, field: string) => `The issue key '${key}' for field '${field}' is invalid.`,
  operator: (operator: string, field: string) =>
    `The operator '${operator}' is not supported by the '${field}' field.`,
  emptyNotSupported: (field: string) => `The field '${field}' does not support searching for EMPTY values.`,
  isNeedsEmpty: (operator: string, field: string) =>
    `The operator '${operator}' only supports searching for EMPTY values on the '${field}' field.`,
  listNotSupported: (operator: string, field: string) =>
    `The operator '${operator}' does not support a list of values for the field '${field}'.`,
  emptyText: (field: string) => `The field '${field}' does not support searching for an empty string.`,
  date: (value: string, field: string) =>
    `Date value '${value}' for field '${field}' is invalid. ${DATE_FORMATS}`,
  predicateDate: (value: string, predicate: string) =>
    `Date value '${value}' for predicate '${predicate}' is invalid. ${DATE_FORMATS}`,
  predicateDates: (predicate: string, count: number) =>
    count === 1
      ? `The predicate '${predicate}' takes one date.`
      : `The predicate '${predicate}' takes two dates: ${predicate} ("from", "to").`,
  noFunction: (display: string) => `Unable to find JQL function '${display}'.`,
  functionForField: (name: string, field: string) =>
    `A value provided by the function '${name}' is invalid for the field '${field}'.`,
  functionArity: (name: string, min: number, max: number, got: number) =>
    min === max
      ? `Function '${name}' expected '${min}' arguments but received '${got}'.`
      : `Function '${name}' expected between '${min}' and '${max}' arguments but received '${got}'.`,
  functionDuration: (value: string, name: string) =>
    `Duration format '${value}' is invalid for function '${name}'.`,
  notSortable: (field: string) => `Not able to sort using field '${field}'.`,
  tooManySortFields: "The ORDER BY clause can contain a maximum of 7 fields.",
};
