// Generated from assets/prices.json by `npm run prices:write`; edit that file, not this one.
import type { PriceTable } from './price-table.js';

/** The built-in prices: every entry names its source and the date the source gives. */
export const DEFAULT_PRICES: PriceTable = {
  "currency": "USD",
  "perTokens": 1000000,
  "models": [
    {
      "provider": "anthropic",
      "model": "claude-3-5-haiku-20241022",
      "match": [
        "claude-3-5-haiku-latest"
      ],
      "input": 0.8,
      "output": 4,
      "cacheRead": 0.08,
      "cacheWrite5m": 1,
      "cacheWrite1h": 1.6,
      "source": "https://docs.anthropic.com/en/docs/about-claude/pricing?939688b5_page=2",
      "date": "2025-08-05",
      "note": "Provider pricing-page snapshot from 2025 (undated; lists Opus 4.1 but not Sonnet 4.5); date is the Opus 4.1 release, a lower bound. Same numbers in pydantic/genai-prices (checked 2026-07-29); synaps 0.10.2 (docs.rs) still lists Haiku 3.5 at $0.80/$4 from the pricing page in Oct 2026."
    },
    {
      "provider": "anthropic",
      "model": "claude-3-haiku-20240307",
      "input": 0.25,
      "output": 1.25,
      "cacheRead": 0.03,
      "cacheWrite5m": 0.3,
      "cacheWrite1h": 0.5,
      "source": "https://docs.anthropic.com/en/docs/about-claude/pricing?939688b5_page=2",
      "date": "2025-08-05",
      "note": "Provider pricing-page snapshot from 2025 (undated; lists Opus 4.1 but not Sonnet 4.5); date is the Opus 4.1 release, a lower bound. synaps 0.10.2 (Oct 2026) calls Haiku 3 'historical', so it may no longer be listed or callable."
    },
    {
      "provider": "anthropic",
      "model": "claude-fable-5",
      "input": 10,
      "output": 50,
      "cacheRead": 1,
      "cacheWrite5m": 12.5,
      "cacheWrite1h": 20,
      "source": "https://platform.claude.com/docs/en/about-claude/pricing?ref=optimizesmart.com",
      "date": "2026-09-01",
      "note": "Provider pricing-page snapshot (undated; lists Fable 5.1, released 2026-09-01, but not Opus 5.5, so read as of early Sep 2026); date is that lower bound. Legacy (released 2026-06-09)."
    },
    {
      "provider": "anthropic",
      "model": "claude-fable-5-1",
      "input": 10,
      "output": 50,
      "cacheRead": 0.25,
      "cacheWrite5m": 12.5,
      "cacheWrite1h": 20,
      "source": "https://platform.claude.com/docs/en/about-claude/pricing?ref=optimizesmart.com",
      "date": "2026-09-01",
      "note": "Provider pricing-page snapshot (undated; lists Fable 5.1, released 2026-09-01, but not Opus 5.5, so read as of early Sep 2026); date is that lower bound. Cache hits are 0.025x input (page footnote 1), not the usual 0.1x."
    },
    {
      "provider": "anthropic",
      "model": "claude-fable-5-2",
      "input": 8,
      "output": 40,
      "cacheRead": 0.2,
      "cacheWrite5m": 10,
      "cacheWrite1h": 16,
      "source": "https://docs.laozhang.ai/en/announcements/claude-fable-5-2-2026-11.md",
      "date": "2026-11-10",
      "note": "THIRD-PARTY ONLY: no Anthropic page for Fable 5.2 (released 2026-11-09) in the stored corpus. Reseller page (last verified 2026-11-10) gives $8/$40, cache read $0.20, cache write $10 and says it equals Anthropic's list price; the 1h write ($16) and the 5m/1h split come from rightsize v0.10.2 release notes (github.com/archid21/rightsize/releases/tag/v0.10.2, undated). Re-check against the provider page."
    },
    {
      "provider": "anthropic",
      "model": "claude-haiku-4-5",
      "match": [
        "claude-haiku-4-5-*"
      ],
      "input": 1,
      "output": 5,
      "cacheRead": 0.1,
      "cacheWrite5m": 1.25,
      "cacheWrite1h": 2,
      "source": "https://platform.claude.com/docs/zh-CN/models/haiku-4-5/overview.md",
      "date": "2026-10-07",
      "note": "Input/output from the provider model page (snapshot undated; names Haiku 5.5, released 2026-10-07, as current, so date is that lower bound). Cache prices are not in the part of the page read; taken from docs.electronhub.ai/guides/prompt-caching (copy of Anthropic's table) and pydantic/genai-prices (checked 2026-07-29), which agree."
    },
    {
      "provider": "anthropic",
      "model": "claude-haiku-5-5",
      "input": 0.1,
      "output": 0.5,
      "cacheRead": 0.01,
      "cacheWrite5m": 0.125,
      "cacheWrite1h": 0.2,
      "above": {
        "inputTokens": 100000,
        "input": 0.5,
        "output": 2.5,
        "cacheRead": 0.05,
        "cacheWrite5m": 0.625,
        "cacheWrite1h": 1
      },
      "source": "https://platform.claude.com/docs/zh-TW/models/haiku-5-5/overview",
      "date": "2026-10-07",
      "note": "Provider model page (released 2026-10-07, the date used; page undated). Two bands by prompt length: over 100,000 prompt tokens (input + cache reads + cache writes) every token of the request, output included, bills at the higher rates. Cache-read prices were cut off in the page excerpt; $0.01/$0.05 from kurofune/claudit v1.9.2 (checked vs live pricing page 2026-10-24) and apidog.com (2026-10-08), which agree."
    },
    {
      "provider": "anthropic",
      "model": "claude-mythos-5-1",
      "input": 10,
      "output": 50,
      "cacheRead": 0.25,
      "cacheWrite5m": 12.5,
      "cacheWrite1h": 20,
      "source": "https://platform.claude.com/docs/en/about-claude/pricing?ref=optimizesmart.com",
      "date": "2026-09-01",
      "note": "Provider pricing-page snapshot (undated; lists Fable 5.1, released 2026-09-01, but not Opus 5.5, so read as of early Sep 2026); date is that lower bound. Limited availability. Model id from kurofune/claudit v1.8.1 release notes."
    },
    {
      "provider": "anthropic",
      "model": "claude-opus-4-0",
      "match": [
        "claude-opus-4-20250514"
      ],
      "input": 15,
      "output": 75,
      "cacheRead": 1.5,
      "cacheWrite5m": 18.75,
      "cacheWrite1h": 30,
      "source": "https://docs.anthropic.com/en/docs/about-claude/pricing?939688b5_page=2",
      "date": "2025-08-05",
      "note": "Provider pricing-page snapshot from 2025 (undated; lists Opus 4.1 but not Sonnet 4.5); date is the Opus 4.1 release, a lower bound. The Sep 2026 page still lists 'Claude Opus 4 (retired, except on Google Cloud)' at $15 input (rest of the row cut off in the excerpt); same numbers in pydantic/genai-prices (checked 2026-07-29)."
    },
    {
      "provider": "anthropic",
      "model": "claude-opus-4-1",
      "match": [
        "claude-opus-4-1-*"
      ],
      "input": 15,
      "output": 75,
      "cacheRead": 1.5,
      "cacheWrite5m": 18.75,
      "cacheWrite1h": 30,
      "source": "https://platform.claude.com/docs/en/about-claude/pricing?ref=optimizesmart.com",
      "date": "2026-09-01",
      "note": "Provider pricing-page snapshot (undated; lists Fable 5.1, released 2026-09-01, but not Opus 5.5, so read as of early Sep 2026); date is that lower bound. Listed as retired, except on Bedrock and Google Cloud."
    },
    {
      "provider": "anthropic",
      "model": "claude-opus-4-5",
      "match": [
        "claude-opus-4-5-*"
      ],
      "input": 5,
      "output": 25,
      "cacheRead": 0.5,
      "cacheWrite5m": 6.25,
      "cacheWrite1h": 10,
      "source": "https://platform.claude.com/docs/en/about-claude/pricing?ref=optimizesmart.com",
      "date": "2026-09-01",
      "note": "Provider pricing-page snapshot (undated; lists Fable 5.1, released 2026-09-01, but not Opus 5.5, so read as of early Sep 2026); date is that lower bound."
    },
    {
      "provider": "anthropic",
      "model": "claude-opus-4-6",
      "input": 5,
      "output": 25,
      "cacheRead": 0.5,
      "cacheWrite5m": 6.25,
      "cacheWrite1h": 10,
      "source": "https://platform.claude.com/docs/en/about-claude/pricing?ref=optimizesmart.com",
      "date": "2026-09-01",
      "note": "Provider pricing-page snapshot (undated; lists Fable 5.1, released 2026-09-01, but not Opus 5.5, so read as of early Sep 2026); date is that lower bound."
    },
    {
      "provider": "anthropic",
      "model": "claude-opus-4-7",
      "input": 5,
      "output": 25,
      "cacheRead": 0.5,
      "cacheWrite5m": 6.25,
      "cacheWrite1h": 10,
      "source": "https://platform.claude.com/docs/en/about-claude/pricing?ref=optimizesmart.com",
      "date": "2026-09-01",
      "note": "Provider pricing-page snapshot (undated; lists Fable 5.1, released 2026-09-01, but not Opus 5.5, so read as of early Sep 2026); date is that lower bound."
    },
    {
      "provider": "anthropic",
      "model": "claude-opus-4-8",
      "input": 5,
      "output": 25,
      "cacheRead": 0.5,
      "cacheWrite5m": 6.25,
      "cacheWrite1h": 10,
      "source": "https://platform.claude.com/docs/en/about-claude/pricing?ref=optimizesmart.com",
      "date": "2026-09-01",
      "note": "Provider pricing-page snapshot (undated; lists Fable 5.1, released 2026-09-01, but not Opus 5.5, so read as of early Sep 2026); date is that lower bound."
    },
    {
      "provider": "anthropic",
      "model": "claude-opus-5",
      "input": 5,
      "output": 25,
      "cacheRead": 0.5,
      "cacheWrite5m": 6.25,
      "cacheWrite1h": 10,
      "source": "https://platform.claude.com/docs/en/about-claude/pricing?ref=optimizesmart.com",
      "date": "2026-09-01",
      "note": "Provider pricing-page snapshot (undated; lists Fable 5.1, released 2026-09-01, but not Opus 5.5, so read as of early Sep 2026); date is that lower bound."
    },
    {
      "provider": "anthropic",
      "model": "claude-opus-5-5",
      "input": 4,
      "output": 20,
      "cacheRead": 0.2,
      "cacheWrite5m": 5,
      "cacheWrite1h": 8,
      "source": "https://platform.claude.com/docs/zh-CN/models/opus-5-5/overview",
      "date": "2026-09-23",
      "note": "Provider model page (undated; Opus 5.5 is newer than the Sep 2026 pricing-page snapshot). Date is when kurofune/claudit v1.8.2 saw it on the live pricing page, with the same numbers. Cache hits are 0.05x input."
    },
    {
      "provider": "anthropic",
      "model": "claude-sonnet-4-0",
      "match": [
        "claude-sonnet-4-20250514"
      ],
      "input": 3,
      "output": 15,
      "cacheRead": 0.3,
      "cacheWrite5m": 3.75,
      "cacheWrite1h": 6,
      "above": {
        "inputTokens": 200000,
        "input": 6,
        "output": 22.5
      },
      "source": "https://docs.anthropic.com/en/docs/about-claude/pricing?939688b5_page=2",
      "date": "2025-08-05",
      "note": "Provider pricing-page snapshot from 2025 (undated; lists Opus 4.1 but not Sonnet 4.5); date is the Opus 4.1 release, a lower bound. Long-context rows (>200K input: $6/$22.50) are from the same page; it gave no long-context cache prices. PromptFuel v1.0.22 notes Sonnet 4 as retired/deprecated in 2026."
    },
    {
      "provider": "anthropic",
      "model": "claude-sonnet-4-5",
      "match": [
        "claude-sonnet-4-5-*"
      ],
      "input": 3,
      "output": 15,
      "cacheRead": 0.3,
      "cacheWrite5m": 3.75,
      "cacheWrite1h": 6,
      "above": {
        "inputTokens": 200000,
        "input": 6,
        "output": 22.5,
        "cacheRead": 0.6,
        "cacheWrite5m": 7.5,
        "cacheWrite1h": 12
      },
      "source": "https://platform.claude.com/docs/zh-CN/models/sonnet-4-5/overview.md",
      "date": "2026-10-07",
      "note": "Input/output from the provider model page (undated; names Sonnet 5.5 as current; says Sonnet 4.5 is deprecated and retires 2026-11-30, i.e. already retired on 2026-12-02). Cache prices from docs.electronhub.ai (copy of Anthropic's table); >200K tier from pydantic/genai-prices (checked 2026-07-29). The same page gives a 200K context window, so the tier may no longer apply."
    },
    {
      "provider": "anthropic",
      "model": "claude-sonnet-4-6",
      "input": 3,
      "output": 15,
      "cacheRead": 0.3,
      "cacheWrite5m": 3.75,
      "cacheWrite1h": 6,
      "source": "https://platform.claude.com/docs/zh-CN/models/sonnet-4-6/overview.md",
      "date": "2026-10-07",
      "note": "Input/output from the provider model page (undated; names Sonnet 5.5 as current; legacy). Cache prices from claudecodeguides.com and pydantic/genai-prices (checked 2026-07-29), which agree; genai-prices has a flat price for the whole 1M context since 2026-03-13."
    },
    {
      "provider": "anthropic",
      "model": "claude-sonnet-5",
      "input": 2,
      "output": 10,
      "cacheRead": 0.2,
      "cacheWrite5m": 2.5,
      "cacheWrite1h": 4,
      "source": "https://platform.claude.com/docs/zh-CN/models/sonnet-5/overview",
      "date": "2026-09-01",
      "note": "Provider model page (undated). The $3/$15 increase planned for 2026-09-01 was cancelled (kurofune/claudit v1.8.1, PromptFuel v1.0.22), so $2/$10 stays; date is that cancellation."
    },
    {
      "provider": "anthropic",
      "model": "claude-sonnet-5-5",
      "input": 2,
      "output": 10,
      "cacheRead": 0.1,
      "cacheWrite5m": 2.5,
      "cacheWrite1h": 4,
      "source": "https://platform.claude.com/docs/zh-CN/models/sonnet-5-5/overview",
      "date": "2026-10-07",
      "note": "Input, output and cache writes from the provider model page. SOURCES DISAGREE on cacheRead: that page snapshot (taken before 2026-10-07) says $0.20; kurofune/claudit v1.9.2 (checked vs live pricing page 2026-10-24), PromptFuel v1.0.23, Token Stats 0.3.2 and synaps 0.10.2 all report a cut to $0.10 on 2026-10-07. $0.10 used; set 0.2 to follow the older provider snapshot."
    },
    {
      "provider": "google",
      "model": "gemini-2.0-flash",
      "match": [
        "gemini-2.0-flash-001"
      ],
      "input": 0.1,
      "output": 0.4,
      "cacheRead": 0.025,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/google.yml",
      "date": "2025-07-04",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21, citing ai.google.dev/gemini-api/docs/pricing); date is its prices_checked value. Input/output also on morphllm.com/gemini-api-pricing (undated, quotes Google's page). morphllm says gemini-2.0-flash shut down on 2026-06-01; kept to price old calls. Text prices only (audio input costs more). No storage price found."
    },
    {
      "provider": "google",
      "model": "gemini-2.5-flash",
      "input": 0.3,
      "output": 2.5,
      "cacheRead": 0.03,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/google.yml",
      "date": "2025-10-31",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21, citing ai.google.dev/gemini-api/docs/pricing); date is its prices_checked value. Input/output also on morphllm.com/gemini-api-pricing (undated, quotes Google's page). Text/image/video prices (audio input costs more). No storage price found."
    },
    {
      "provider": "google",
      "model": "gemini-2.5-flash-lite",
      "input": 0.1,
      "output": 0.4,
      "cacheRead": 0.01,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/google.yml",
      "date": "2025-10-31",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21, citing ai.google.dev/gemini-api/docs/pricing); date is its prices_checked value. Input/output also on morphllm.com/gemini-api-pricing (undated, quotes Google's page). Text/image/video prices (audio input costs more). No storage price found."
    },
    {
      "provider": "google",
      "model": "gemini-2.5-pro",
      "input": 1.25,
      "output": 10,
      "cacheRead": 0.125,
      "cacheStoragePerHour": 4.5,
      "above": {
        "inputTokens": 200000,
        "input": 2.5,
        "output": 15,
        "cacheRead": 0.25
      },
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/google.yml",
      "date": "2025-10-31",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21, citing ai.google.dev/gemini-api/docs/pricing); date is its prices_checked value. Cache prices ($0.125 / $0.25 over 200K) and $4.50 per 1M tokens per hour storage as quoted from Google's page on discuss.ai.google.dev/t/107349; an older thread there (/t/92919) quotes $0.31/$0.625, an earlier price. $1.25/$10 and $2.50/$15 over 200K also on deploybase.ai (Mar 2026)."
    },
    {
      "provider": "google",
      "model": "gemini-3-flash-preview",
      "match": [
        "gemini-3-flash-preview-*",
        "gemini-3-flash"
      ],
      "input": 0.5,
      "output": 3,
      "cacheRead": 0.05,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/google.yml",
      "date": "2025-12-19",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21, citing ai.google.dev/gemini-api/docs/pricing); date is its prices_checked value. morphllm lists 'gemini-3-flash' at $0.50/$3.00 'up to 200k' but gives no over-200K rate, so none is set here. Text prices. No storage price found."
    },
    {
      "provider": "google",
      "model": "gemini-3.1-flash-lite",
      "match": [
        "gemini-3.1-flash-lite-preview*"
      ],
      "input": 0.25,
      "output": 1.5,
      "cacheRead": 0.025,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/google.yml",
      "date": "2026-05-12",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21, citing ai.google.dev/gemini-api/docs/pricing); date is its prices_checked value. Input/output also on morphllm.com/gemini-api-pricing (undated, quotes Google's page). Text prices. No storage price found."
    },
    {
      "provider": "google",
      "model": "gemini-3.1-pro-preview",
      "match": [
        "gemini-3.1-pro-preview-*",
        "gemini-3.1-pro"
      ],
      "input": 2,
      "output": 12,
      "cacheRead": 0.2,
      "above": {
        "inputTokens": 200000,
        "input": 4,
        "output": 18,
        "cacheRead": 0.4
      },
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/google.yml",
      "date": "2026-02-23",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21, citing ai.google.dev/gemini-api/docs/pricing); date is its prices_checked value. morphllm lists 'gemini-3.1-pro' at $2/$12 and $4 input over 200K; techjacksolutions.com (2026-06-09) gives $2.00 input and $0.20 cached. No storage price found."
    },
    {
      "provider": "google",
      "model": "gemini-3.5-flash",
      "match": [
        "gemini-3.5-flash-preview*"
      ],
      "input": 1.5,
      "output": 9,
      "cacheRead": 0.15,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/google.yml",
      "date": "2026-05-19",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21, citing ai.google.dev/gemini-api/docs/pricing); date is its prices_checked value. Input/output also on morphllm.com/gemini-api-pricing (undated, quotes Google's page). No storage price found."
    },
    {
      "provider": "google",
      "model": "gemini-3.5-flash-lite",
      "input": 0.3,
      "output": 2.5,
      "cacheRead": 0.03,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/google.yml",
      "date": "2026-07-22",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21, citing ai.google.dev/gemini-api/docs/pricing); date is its prices_checked value. Input price is the same for all modalities. No storage price found."
    },
    {
      "provider": "google",
      "model": "gemini-3.6-flash",
      "input": 0.75,
      "output": 3.75,
      "cacheRead": 0.075,
      "cacheStoragePerHour": 0.5,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/google.yml",
      "date": "2026-08-13",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21, citing ai.google.dev/gemini-api/docs/pricing); date is its prices_checked value. Introductory prices, valid to 2026-12-31; from 2027-01-01: $1.50 input, $7.50 output, $0.15 cache read. Storage $0.50 per 1M tokens per hour, as quoted in the database's comment."
    },
    {
      "provider": "google",
      "model": "gemini-3.7-flash",
      "input": 0.75,
      "output": 3.75,
      "cacheRead": 0.075,
      "cacheStoragePerHour": 0.5,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/google.yml",
      "date": "2026-08-13",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21, citing ai.google.dev/gemini-api/docs/pricing); date is its prices_checked value. Introductory prices, valid to 2026-12-31; from 2027-01-01: $1.50 input, $7.50 output, $0.15 cache read. Storage $0.50 per 1M tokens per hour, as quoted in the database's comment."
    },
    {
      "provider": "openai",
      "model": "gpt-4.1",
      "match": [
        "gpt-4.1-2025-04-14"
      ],
      "input": 2,
      "output": 8,
      "cacheRead": 0.5,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/openai.yml",
      "date": "2025-07-04",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21); date is its prices_checked value. Same in gist ei-grad/9a7c000f (LiteLLM copy). Sraleik/undetermini PRICING.md (2026-05-07) says OpenAI's pricing page no longer lists gpt-4.x; gpt-4.1-nano's OpenAI page shows it as shut down, so gpt-4.1 may be too."
    },
    {
      "provider": "openai",
      "model": "gpt-4.1-mini",
      "match": [
        "gpt-4.1-mini-2025-04-14"
      ],
      "input": 0.4,
      "output": 1.6,
      "cacheRead": 0.1,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/openai.yml",
      "date": "2025-07-04",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21); date is its prices_checked value. Same input/output in Sraleik/undetermini PRICING.md (2026-05-07). May be shut down, like gpt-4.1-nano."
    },
    {
      "provider": "openai",
      "model": "gpt-4.1-nano",
      "match": [
        "gpt-4.1-nano-2025-04-14"
      ],
      "input": 0.1,
      "output": 0.4,
      "cacheRead": 0.025,
      "source": "https://developers.openai.com/ko-KR/api/docs/models/gpt-4.1-nano",
      "date": "2026-08-21",
      "note": "Provider model page (undated). It marks the model as shut down, so this row only prices old calls. Date is a guess at the snapshot's age: same as the genai-prices snapshot, which agrees on the numbers."
    },
    {
      "provider": "openai",
      "model": "gpt-4o",
      "match": [
        "gpt-4o-2024-08-06",
        "gpt-4o-2024-11-20"
      ],
      "input": 2.5,
      "output": 10,
      "cacheRead": 1.25,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/openai.yml",
      "date": "2025-07-04",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21); date is its prices_checked value. Same in CommitBrief wiki (May 2026, from openai.com/api/pricing). gpt-4o-2024-05-13 is left out of match on purpose: genai-prices maps it here, but that snapshot was priced differently and no source here gives its price."
    },
    {
      "provider": "openai",
      "model": "gpt-4o-mini",
      "match": [
        "gpt-4o-mini-2024-07-18"
      ],
      "input": 0.15,
      "output": 0.6,
      "cacheRead": 0.075,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/openai.yml",
      "date": "2025-07-04",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21); date is its prices_checked value. Same in CommitBrief wiki (May 2026) and Sraleik/undetermini PRICING.md (2026-05-07)."
    },
    {
      "provider": "openai",
      "model": "gpt-5",
      "match": [
        "gpt-5-2025-08-07"
      ],
      "input": 1.25,
      "output": 10,
      "cacheRead": 0.125,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/openai.yml",
      "date": "2025-11-13",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21); date is its prices_checked value. Input/output also in the openai-cost crate (docs.rs) and as the GPT-5 row on OpenAI's gpt-5-codex page."
    },
    {
      "provider": "openai",
      "model": "gpt-5-mini",
      "match": [
        "gpt-5-mini-2025-08-07"
      ],
      "input": 0.25,
      "output": 2,
      "cacheRead": 0.025,
      "source": "https://developers.openai.com/ko-KR/api/docs/models/gpt-5-mini",
      "date": "2026-08-21",
      "note": "Provider model page (undated; marked as being deprecated; suggests GPT-5.6 Terra). genai-prices (checked 2025-11-13) agrees. Date is a guess at the snapshot's age."
    },
    {
      "provider": "openai",
      "model": "gpt-5-nano",
      "match": [
        "gpt-5-nano-2025-08-07"
      ],
      "input": 0.05,
      "output": 0.4,
      "cacheRead": 0.005,
      "source": "https://developers.openai.com/api/docs/models/gpt-5-nano.md",
      "date": "2026-08-21",
      "note": "Provider model page (undated; suggests GPT-5.6 Luna; another copy says GPT-6 Luna and shows it as deprecated). genai-prices agrees. Date is a guess at the snapshot's age."
    },
    {
      "provider": "openai",
      "model": "gpt-5.1",
      "match": [
        "gpt-5.1-2025-11-13"
      ],
      "input": 1.25,
      "output": 10,
      "cacheRead": 0.125,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/openai.yml",
      "date": "2025-11-13",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21); date is its prices_checked value."
    },
    {
      "provider": "openai",
      "model": "gpt-5.2",
      "match": [
        "gpt-5.2-2025-12-11"
      ],
      "input": 1.75,
      "output": 14,
      "cacheRead": 0.175,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/openai.yml",
      "date": "2025-12-11",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21); date is its prices_checked value."
    },
    {
      "provider": "openai",
      "model": "gpt-5.4",
      "match": [
        "gpt-5.4-2026-03-05"
      ],
      "input": 2.5,
      "output": 15,
      "cacheRead": 0.25,
      "above": {
        "inputTokens": 272000,
        "input": 5,
        "output": 22.5,
        "cacheRead": 0.5
      },
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/openai.yml",
      "date": "2026-03-06",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21); date is its prices_checked value. Base rates also in the adk-model crate (docs.rs, March 2026)."
    },
    {
      "provider": "openai",
      "model": "gpt-5.4-mini",
      "match": [
        "gpt-5.4-mini-2026-03-17"
      ],
      "input": 0.75,
      "output": 4.5,
      "cacheRead": 0.075,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/openai.yml",
      "date": "2026-03-18",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21); date is its prices_checked value. Same in the adk-model crate; OpenAI's gpt-5-mini page lists GPT-5.4 Mini input at $0.75."
    },
    {
      "provider": "openai",
      "model": "gpt-5.4-nano",
      "match": [
        "gpt-5.4-nano-2026-03-17"
      ],
      "input": 0.2,
      "output": 1.25,
      "cacheRead": 0.02,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/openai.yml",
      "date": "2026-03-18",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21); date is its prices_checked value. OpenAI's gpt-5-nano page lists GPT-5.4 nano input at $0.20."
    },
    {
      "provider": "openai",
      "model": "gpt-5.5",
      "match": [
        "gpt-5.5-2026-04-23",
        "gpt-5.5-2026-04-24"
      ],
      "input": 5,
      "output": 30,
      "cacheRead": 0.5,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/openai.yml",
      "date": "2026-04-24",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21); date is its prices_checked value. $5/$30 also on vercel.com/ai-gateway and apidog.com."
    },
    {
      "provider": "openai",
      "model": "gpt-5.6-luna",
      "match": [
        "gpt-5.6-luna-*"
      ],
      "input": 0.2,
      "output": 1.2,
      "cacheRead": 0.02,
      "cacheWrite5m": 0.25,
      "above": {
        "inputTokens": 272000,
        "input": 0.4,
        "output": 1.8,
        "cacheRead": 0.04,
        "cacheWrite5m": 0.5
      },
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/openai.yml",
      "date": "2026-08-02",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21); date is its prices_checked value. Rates after OpenAI's 80% cut of 2026-07-30 (before: $1/$6). cacheWrite5m holds OpenAI's cache-write price (1.25x input). genai-prices matches only dated ids; the bare id is from OpenAI's docs URL /models/gpt-5.6-luna."
    },
    {
      "provider": "openai",
      "model": "gpt-5.6-sol",
      "match": [
        "gpt-5.6-sol-*"
      ],
      "input": 5,
      "output": 30,
      "cacheRead": 0.5,
      "cacheWrite5m": 6.25,
      "above": {
        "inputTokens": 272000,
        "input": 10,
        "output": 45,
        "cacheRead": 1,
        "cacheWrite5m": 12.5
      },
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/openai.yml",
      "date": "2026-08-02",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21); date is its prices_checked value. cacheWrite5m holds OpenAI's cache-write price. Bare id from OpenAI's docs URL /models/gpt-5.6-sol."
    },
    {
      "provider": "openai",
      "model": "gpt-5.6-terra",
      "match": [
        "gpt-5.6-terra-*"
      ],
      "input": 2,
      "output": 12,
      "cacheRead": 0.2,
      "cacheWrite5m": 2.5,
      "above": {
        "inputTokens": 272000,
        "input": 4,
        "output": 18,
        "cacheRead": 0.4,
        "cacheWrite5m": 5
      },
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/openai.yml",
      "date": "2026-08-02",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21); date is its prices_checked value. Rates after OpenAI's 20% cut of 2026-07-30 (before: $2.50/$15). cacheWrite5m holds OpenAI's cache-write price. Bare id from OpenAI's docs URL."
    },
    {
      "provider": "openai",
      "model": "o3",
      "match": [
        "o3-2025-04-16"
      ],
      "input": 2,
      "output": 8,
      "cacheRead": 0.5,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/openai.yml",
      "date": "2025-07-12",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21); date is its prices_checked value. Rates after the cut of 2025-06-10. The older $10/$40/$2.50 in a RooCodeInc/Roo-Code patch (Apr 2025) is out of date."
    },
    {
      "provider": "openai",
      "model": "o4-mini",
      "match": [
        "o4-mini-2025-04-16"
      ],
      "input": 1.1,
      "output": 4.4,
      "cacheRead": 0.275,
      "source": "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/providers/openai.yml",
      "date": "2025-07-04",
      "note": " Third-party price database (pydantic/genai-prices, snapshot of 2026-08-21); date is its prices_checked value. Same in helicone.ai/model/o4-mini."
    }
  ]
};
