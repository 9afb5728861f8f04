import { describe, expect, it } from "vitest";
import { readBodyText } from "./read-body.ts";

function streamed(chunks: string[], pulled: string[]): Request {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i === chunks.length) return controller.close();
      pulled.push(chunks[i]!);
      controller.enqueue(new TextEncoder().encode(chunks[i++]));
    },
  });
  return new Request("http://h/x", { method: "POST", body, duplex: "half" } as RequestInit);
}

describe("readBodyText", () => {
  it("reads a body within the limit, and an absent one as empty text", async () => {
    expect(await readBodyText(new Request("http://h/x", { method: "POST", body: "héllo" }), 6)).toBe("héllo");
    expect(await readBodyText(new Request("http://h/x"), 6)).toBe("");
  });

  it("decodes the charset the Content-Type declares, UTF-8 otherwise", async () => {
    const latin1 = Uint8Array.from([0x63, 0x61, 0x66, 0xe9]); // "café" in ISO-8859-1
    const sent = (type: string, bytes: Uint8Array) =>
      new Request("http://h/x", {
        method: "POST",
        body: bytes,
        headers: { "content-type": type, "content-length": String(bytes.byteLength) },
      });
    expect(await readBodyText(sent("application/json; charset=ISO-8859-1", latin1))).toBe("café");
    const utf16 = new Uint8Array(Buffer.from("café", "utf16le"));
    expect(await readBodyText(sent('application/json;charset="utf-16le"', utf16))).toBe("café");
    const utf8 = new TextEncoder().encode("café");
    expect(await readBodyText(sent("application/json", utf8))).toBe("café");
    expect(await readBodyText(sent("application/json; charset=no-such-charset", utf8))).toBe("café");
    expect(await readBodyText(sent("application/json; charset=latin1", latin1), 3)).toBeNull();
  });

  it("refuses a declared length over the limit without reading", async () => {
    const request = new Request("http://h/x", {
      method: "POST",
      body: "0123456789",
      headers: { "content-length": "10" },
    });
    expect(await readBodyText(request, 9)).toBeNull();
    expect(request.bodyUsed).toBe(false);
  });

  it("stops reading a streamed body as soon as it passes the limit", async () => {
    const pulled: string[] = [];
    expect(await readBodyText(streamed(["aaaa", "bbbb", "cccc", "dddd"], pulled), 6)).toBeNull();
    expect(pulled.length).toBeLessThan(4);
  });
});
