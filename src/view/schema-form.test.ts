import { describe, expect, it } from "vitest";
import { defaultTools } from "../tools/catalogue.ts";
import { toFunctionTool } from "../tools/define-tool.ts";
import { argumentsFromForm, FormValueError, type JsonSchema, schemaFields } from "./schema-form.ts";

const schema: JsonSchema = {
  type: "object",
  required: ["issueIdOrKey"],
  properties: {
    issueIdOrKey: { type: "string" },
    maxResults: { type: "integer" },
    notify: { type: "boolean" },
    order: { type: "string", enum: ["key", "-key"] },
    transition: { type: "object", properties: { id: { type: "string" } } },
    labels: { type: "array", items: { type: "string" } },
    links: { type: "array", items: { type: "object", properties: { key: { type: "string" } } } },
    assignee: { description: "any JSON" },
  },
};

describe("schema forms", () => {
  it("renders one named input per leaf: text, number, selects, fieldsets, list slots, JSON areas", () => {
    const html = schemaFields(schema, "tool");
    expect(html).toContain('name="arg.issueIdOrKey" type="text"');
    expect(html).toContain('name="arg.maxResults" type="number"');
    expect(html).toMatch(/<select id="f-tool-notify" name="arg.notify" data-kind="boolean">/);
    expect(html).toContain('<option value="&quot;-key&quot;">-key</option>');
    expect(html).toContain("<legend>transition</legend>");
    expect(html).toContain('name="arg.labels.0"');
    expect(html).toContain('name="arg.labels.1"');
    expect(html).toContain('name="arg.links.0.key"');
    expect(html).toContain('<textarea id="f-tool-assignee" name="arg.assignee" data-kind="json"');
  });

  it("reads typed, nested arguments back and leaves empty fields out", () => {
    const args = argumentsFromForm(schema, {
      tool: "x",
      "arg.issueIdOrKey": "ENG-9",
      "arg.maxResults": "20",
      "arg.notify": "false",
      "arg.order": '"-key"',
      "arg.transition.id": "11",
      "arg.labels.0": "a",
      "arg.labels.1": "",
      "arg.labels.2": "b",
      "arg.links.0.key": "ENG-1",
      "arg.assignee": '{"accountId":"u1"}',
      "arg.unknown": "ignored",
    });
    expect(args).toEqual({
      issueIdOrKey: "ENG-9",
      maxResults: 20,
      notify: false,
      order: "-key",
      transition: { id: "11" },
      labels: ["a", "b"],
      links: [{ key: "ENG-1" }],
      assignee: { accountId: "u1" },
    });
    expect(argumentsFromForm(schema, { "arg.issueIdOrKey": "" })).toEqual({});
  });

  it("names the field of a bad value", () => {
    expect(() => argumentsFromForm(schema, { "arg.maxResults": "1.5" })).toThrow(FormValueError);
    expect(() => argumentsFromForm(schema, { "arg.maxResults": "1.5" })).toThrow(
      "maxResults: '1.5' is not an integer",
    );
    expect(() => argumentsFromForm(schema, { "arg.assignee": "{" })).toThrow(/assignee: not valid JSON/);
  });

  it("renders every catalogue tool without throwing, each input named under arg.", () => {
    for (const tool of defaultTools().values()) {
      const f = toFunctionTool(tool).function;
      const html = schemaFields(f.parameters as JsonSchema, f.name);
      for (const name of html.matchAll(/name="([^"]+)"/g)) expect(name[1]).toMatch(/^arg\./);
    }
  });
});
