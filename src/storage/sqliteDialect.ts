import { type LimitNode, SqliteDialect, SqliteQueryCompiler, ValueNode } from "kysely";

/**
 * Writes a bound LIMIT as `limit +?`. SQLite (3.53 here) reads the value bound to a bare `limit ?`
 * while planning, so every new binding of it, which is every run, throws the plan away: the next
 * step parses and plans the statement again, as after a schema change. That doubled a client API
 * page's statement and added half again to a hub page's (docs/performance.md, "Limits bound so that
 * SQLite plans a statement once"). A unary plus makes the limit an expression SQLite evaluates when
 * it runs, with the same meaning; a statement is then planned once.
 */
class LimitOnceCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    if (!ValueNode.is(node.limit) || node.limit.immediate === true) return super.visitLimit(node);
    this.append("limit +");
    this.visitNode(node.limit);
  }
}

/** Kysely's SQLite dialect, with limits bound so that statements keep their plans. */
export class CastnetSqliteDialect extends SqliteDialect {
  override createQueryCompiler(): SqliteQueryCompiler {
    return new LimitOnceCompiler();
  }
}
