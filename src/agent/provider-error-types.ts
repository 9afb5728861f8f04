/**
 * The kinds of model-provider failure an episode can end on (`error.type` on the trace and in
 * episodes.jsonl), each with what it means. A provider error says nothing about the model: eval counts
 * it apart and `--resume` reruns the episode. docs/evaluation.md's table is generated from this list.
 */
export const PROVIDER_ERROR_TYPES = {
  rate_limited: "HTTP 429 after every retry (Retry-After honoured)",
  auth: "HTTP 401 or 403: the key is missing or not accepted (not retried)",
  not_found: "HTTP 404: wrong base URL or a model the server does not serve (not retried)",
  timeout: "no answer within --timeout, or HTTP 408, after every retry",
  server_error: "HTTP 5xx after every retry",
  bad_request: "another HTTP 4xx: the server refused the request (not retried)",
  connection: "the connection failed or dropped (refused, reset, DNS) after every retry",
  invalid_response: "the server answered something that is not a completion (no choices, bad JSON)",
  model_unavailable: "local: the GGUF could not be loaded or downloaded",
  generation_failed: "local: llama.cpp failed while generating",
  aborted: "the run was stopped (Ctrl-C, SIGTERM) while the request was pending",
} as const;

export type ProviderErrorType = keyof typeof PROVIDER_ERROR_TYPES;
