package io.jdbcrepl.apply;

import io.jdbcrepl.lcr.RowLcr;
import io.jdbcrepl.log.Position;
import io.jdbcrepl.log.SourceTx;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/**
 * The tables a join copied in a later snapshot than the one applying from a source starts at (the
 * join resumed after a crash, SPEC 8.1): they already hold that source's transactions up to the
 * later snapshot's position, so an applier skips those transactions' LCRs for them, and only for
 * them. Empty after a join that was not interrupted, and for a node that never joined.
 */
final class CopiedTables {

    private static final CopiedTables NONE = new CopiedTables(Map.of(), null, null);

    private final Map<String, Position> copiedAt;
    private final String sourceHomeSchema;
    private final String localHomeSchema;

    private CopiedTables(Map<String, Position> copiedAt, String sourceHomeSchema, String localHomeSchema) {
        this.copiedAt = copiedAt;
        this.sourceHomeSchema = sourceHomeSchema;
        this.localHomeSchema = localHomeSchema;
    }

    /**
     * The tables copied after the changes of {@code source} this node has applied up to {@code applied}:
     * a table whose snapshot {@code applied} is already at or past needs nothing skipped.
     */
    static CopiedTables load(Connection local, JoinState state, String source, Position applied, String sourceHomeSchema,
            String localHomeSchema) throws SQLException {
        Map<String, Position> copied = state.copiedPositions(local, source);
        copied.values().removeIf(applied::atOrPast);
        return copied.isEmpty() ? NONE : new CopiedTables(copied, sourceHomeSchema, localHomeSchema);
    }

    /** Whether the table of {@code lcr} was copied with {@code tx} in it: its LCR is there already. */
    boolean holds(RowLcr lcr, SourceTx tx) {
        if (copiedAt.isEmpty()) return false;
        String schema = TableMap.mapSchema(lcr.objectOwner(), sourceHomeSchema, localHomeSchema);
        Position at = copiedAt.get(JoinState.key(schema, lcr.objectName()));
        return at != null && at.consumed(tx.txId(), tx.lastPosition(), tx.after());
    }
}
