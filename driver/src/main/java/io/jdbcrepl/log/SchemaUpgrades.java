package io.jdbcrepl.log;

import io.jdbcrepl.dialect.Dialect;

import java.util.List;

/**
 * The steps that bring the driver's tables from one {@link SchemaVersion} to the next, in order.
 * A step only changes tables that exist: tables a version adds are created by
 * {@link TableDefinitions} (every statement there is {@code IF NOT EXISTS}). Each step is safe to
 * run again, since MariaDB commits DDL statement by statement and a step can stop half way.
 */
final class SchemaUpgrades {

    /** A nullable column added to an existing table: instant on PostgreSQL and MariaDB. */
    record Column(String table, String name, String type) {
    }

    /** What brings version {@code to - 1} to {@code to}. */
    record Step(int to, List<Column> columns) {
    }

    private SchemaUpgrades() {
    }

    /** Every step, from the first release's tables to {@link SchemaVersion#CURRENT}. */
    static List<Step> all(Dialect dialect) {
        return List.of(
                // 2: a source gone back in time is noticed and recorded (log.Rewind)
                new Step(2, List.of(
                        new Column("repl_progress", "subscribed", "VARCHAR(4000)"),
                        new Column("repl_progress", "rewound", "VARCHAR(4000)"))),
                // 3: LCRs signed with repl.log.key
                new Step(3, List.of(
                        new Column("repl_log", "signature", dialect.part(LogTableSql.class).signatureType()),
                        new Column("repl_error_lcr", "signature", dialect.part(LogTableSql.class).signatureType()))),
                // 4: new tables, nothing to add to old ones: joins (SPEC 8.1) in repl_join, each node's key
                // scheme (SPEC 8.2) in repl_keys
                new Step(4, List.of()),
                // 5: a new table: DDL under way (SPEC 8.3) in repl_ddl
                new Step(5, List.of()));
    }

    /** The steps from version {@code from} to {@link SchemaVersion#CURRENT}, in order. */
    static List<Step> after(Dialect dialect, int from) {
        return all(dialect).stream().filter(step -> step.to() > from).toList();
    }
}
