/**
 * The hub's Prometheus metrics (GET /metrics, docs/operations.md). What is counted as it happens is
 * O(1) per message with labels from small fixed sets (error codes, never fids or hashes); what can
 * be read from the hub's own state is read when scraped.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { HubErrorCode } from "../protocol/errors.js";
import type { Follower } from "./follow/follower.js";

/** Powers of two up to the largest group commit (256) and beyond any verify batch. */
const SIZE_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];

export class HubMetrics {
  readonly merges: Counter;
  readonly refusals: Counter<"code">;
  readonly verifyBatchSize: Histogram;
  readonly mergeGroupSize: Histogram;
  readonly eventsWritten: Counter;
  readonly streams: Gauge;
  readonly registry = new Registry();

  constructor() {
    const registers = [this.registry];
    this.merges = new Counter({
      name: "castnet_hub_merges_total",
      help: "Submitted messages merged.",
      registers,
    });
    this.refusals = new Counter({
      name: "castnet_hub_refusals_total",
      help: "Submitted messages refused, by the errCode of the refusal.",
      labelNames: ["code"] as const,
      registers,
    });
    this.verifyBatchSize = new Histogram({
      name: "castnet_hub_verify_batch_size",
      help: "Messages per batch sent to a verifier thread.",
      buckets: SIZE_BUCKETS,
      registers,
    });
    this.mergeGroupSize = new Histogram({
      name: "castnet_hub_merge_group_size",
      help: "Messages per group commit (one transaction).",
      buckets: SIZE_BUCKETS,
      registers,
    });
    this.eventsWritten = new Counter({
      name: "castnet_hub_events_written_total",
      help: "Hub events committed to the event log.",
      registers,
    });
    this.streams = new Gauge({
      name: "castnet_hub_event_streams",
      help: "Open event streams (GET /v1/events/stream subscribers).",
      registers,
    });
  }

  refused(code: HubErrorCode): void {
    this.refusals.inc({ code });
  }

  /** The gauges read when scraped: the verifier's queue and how far the followers are behind. */
  watch(sources: {
    verifyQueue(): number;
    followers: Readonly<Record<"chain" | "registry", Follower>>;
  }): void {
    new Gauge({
      name: "castnet_hub_verify_queue_depth",
      help: "Messages waiting for a free verifier thread.",
      registers: [this.registry],
      collect() {
        this.set(sources.verifyQueue());
      },
    });
    new Gauge({
      name: "castnet_hub_follower_lag_seconds",
      help: "Seconds since the oldest change of the chain or the registry that the hub has not merged; 0 when caught up.",
      labelNames: ["source"] as const,
      registers: [this.registry],
      collect() {
        for (const [source, follower] of Object.entries(sources.followers))
          this.set({ source }, follower.lagSeconds());
      },
    });
  }
}
