import type { Summary } from "./summary.js";
import type { ThreadCpu } from "./threadCpu.js";

/** What every suite is given. */
export interface BenchContext {
  /** Smaller sizes and shorter rounds. */
  quick: boolean;
  /** This process's CPU by thread group: the servers run in this process. */
  cpu: ThreadCpu;
  summary: Summary;
}
