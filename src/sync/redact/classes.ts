// The closed vocabulary of what redaction recognises: each class is the `<class>` in `[REDACTED:<class>]`.
// A superset of livingbrain-redact's 22 classes (research/livingbrain.md §6.2), names kept where shared.

export const redactionClasses = [
  'anthropic_key',
  'openai_key',
  'openrouter_key',
  'google_api_key',
  'groq_key',
  'xai_key',
  'huggingface_token',
  'replicate_token',
  'github_token',
  'gitlab_pat',
  'npm_token',
  'pypi_token',
  'sendgrid_key',
  'aws_access_key',
  'aws_secret_key',
  'azure_key',
  'digitalocean_token',
  'stripe_key',
  'slack_token',
  'slack_webhook',
  'discord_webhook',
  'twilio_key',
  'shopify_token',
  'polar_token',
  'jwt',
  'private_key',
  'bearer_token',
  'basic_auth',
  'env_secret',
  'generic_secret',
  'database_url',
  'url_credentials',
  'home_path',
  'email',
  'phone',
  'ip_address',
  'high_entropy',
] as const;
export type RedactionClass = (typeof redactionClasses)[number];

/** Where a secret was found: a class and a UTF-16 span of the input. Never the matched text, so safe to log. */
export interface Finding {
  cls: RedactionClass;
  start: number;
  end: number;
}

/** What stands where a finding was. */
export function redactionToken(cls: RedactionClass): string {
  return `[REDACTED:${cls}]`;
}

/** Matches one replacement token (used to keep redaction idempotent). */
export const tokenPattern = /\[REDACTED:[a-z_]{1,32}\]/g;
