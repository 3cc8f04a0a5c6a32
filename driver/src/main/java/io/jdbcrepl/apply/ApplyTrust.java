package io.jdbcrepl.apply;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.config.ReplConfig;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.RowLcr;

import java.util.Locale;
import java.util.Set;

/**
 * SPEC 8.7: a peer's log is input, not orders. Anyone who can insert into a peer's {@code repl_log}
 * writes LCRs this node would apply with the apply user's privileges, so an LCR is applied only when
 * it comes from the peer it was read from and names a table this node accepts changes for: one
 * matching {@code repl.apply.tables}, neither a driver table nor in a system schema. Anything else
 * fails its whole transaction with {@link #REFUSED}, which no handler can resolve.
 */
final class ApplyTrust {

    /** SQLState of a refused LCR: insufficient privilege. */
    static final String REFUSED = SqlState.INSUFFICIENT_PRIVILEGE.code();

    /** Compared lower-case; H2's INFORMATION_SCHEMA is information_schema folded. */
    private static final Set<String> SYSTEM_SCHEMAS =
            Set.of("pg_catalog", "information_schema", "mysql", "performance_schema", "sys");

    private final ReplConfig config;
    private final Dialect dialect;
    private final String source;
    private final String sourceHomeSchema;
    private final String localHomeSchema;
    private final String localLogSchema;
    private final boolean sourceIsPeer;
    /** The verdict by source schema and table (null: accepted); bounded, a forged log may name any number of tables. */
    private final java.util.Map<String, java.util.Optional<String>> tables = new java.util.HashMap<>();

    /**
     * @param source the peer the LCRs are read from (or, for an error queue entry, the peer it came from)
     * @param sourceHomeSchema the source's current schema, which maps to {@code localHomeSchema} ({@link TableMap})
     * @param localLogSchema where this node's driver tables are
     */
    ApplyTrust(ReplConfig config, Dialect dialect, String source, String sourceHomeSchema, String localHomeSchema,
            String localLogSchema) {
        this.config = config;
        this.dialect = dialect;
        this.source = source;
        this.sourceHomeSchema = sourceHomeSchema;
        this.localHomeSchema = localHomeSchema;
        this.localLogSchema = localLogSchema;
        this.sourceIsPeer = source != null && config.peers().stream().anyMatch(source::equalsIgnoreCase);
    }

    String sourceHomeSchema() {
        return sourceHomeSchema;
    }

    String localHomeSchema() {
        return localHomeSchema;
    }

    /** Whether this node runs its peers' DDL (repl.ddl=replicate). */
    boolean acceptsDdl() {
        return config.replicatesDdl();
    }

    /** Null when this node may apply the LCR, else why not (naming the source, the table and what is refused). */
    String refusal(RowLcr lcr) {
        if (!sourceIsPeer) return from(lcr) + ": " + source + " is not a peer in repl.peers here";
        if (!source.equalsIgnoreCase(lcr.sourceDatabase())) {
            return from(lcr) + " names source node " + lcr.sourceDatabase() + ", not the peer it was read from";
        }
        String key = lcr.objectOwner() + "\u0000" + lcr.objectName();
        java.util.Optional<String> known = tables.get(key);
        if (known == null) {
            if (tables.size() >= 1024) tables.clear();
            known = java.util.Optional.ofNullable(tableRefusal(lcr.objectOwner(), lcr.objectName()));
            tables.put(key, known);
        }
        return known.orElse(null);
    }

    private String from(RowLcr lcr) {
        return from(lcr.objectOwner(), lcr.objectName());
    }

    private String from(String owner, String name) {
        return "LCR for " + (owner == null ? "" : owner + ".") + name + " read from peer " + source;
    }

    /** Whether this node takes changes of the source's table {@code owner.name}: null when it does, else why not. */
    String tableRefusal(String owner, String name) {
        String from = from(owner, name);
        String schema = TableMap.mapSchema(owner, sourceHomeSchema, localHomeSchema);
        String lowerSchema = schema == null ? "" : schema.toLowerCase(Locale.ROOT);
        if (SYSTEM_SCHEMAS.contains(lowerSchema) || lowerSchema.startsWith("pg_")) {
            return from + ": " + schema + " is a system schema, never written by replication";
        }
        String lowerTable = name.toLowerCase(Locale.ROOT);
        if (lowerTable.startsWith("repl_") || lowerTable.startsWith("mlog$_")) {
            return from + ": " + name + " is one of the driver's own tables, never written by replication";
        }
        if (localLogSchema != null && localLogSchema.equalsIgnoreCase(schema) && !localLogSchema.equalsIgnoreCase(localHomeSchema)) {
            return from + ": " + schema + " is the driver's schema here, never written by replication";
        }
        if (!config.acceptsApply(schema, name, localHomeSchema, dialect.foldsToUpper())) {
            return from + ": the table does not match repl.apply.tables (by default repl.tables minus repl.exclude) here";
        }
        return null;
    }
}
