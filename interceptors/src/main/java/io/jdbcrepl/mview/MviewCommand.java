package io.jdbcrepl.mview;

import java.util.List;

/** A statement about materialized views or their logs that the driver runs itself. */
public sealed interface MviewCommand {

    /** {@code CREATE MATERIALIZED VIEW LOG ON t [WITH …] [(columns)] [INCLUDING NEW VALUES]}. */
    record CreateLog(Name table, boolean primaryKey, boolean rowid, boolean sequence, List<String> columns,
            boolean newValues) implements MviewCommand {
    }

    /** {@code DROP MATERIALIZED VIEW LOG ON t}. */
    record DropLog(Name table) implements MviewCommand {
    }

    /** {@code CREATE MATERIALIZED VIEW mv [BUILD IMMEDIATE] REFRESH FAST|COMPLETE|FORCE ON COMMIT|ON DEMAND AS query}. */
    record CreateView(Name view, Method method, boolean onCommit, String query) implements MviewCommand {
    }

    /** {@code DROP MATERIALIZED VIEW mv}. */
    record DropView(Name view) implements MviewCommand {
    }

    /** {@code CALL DBMS_MVIEW.REFRESH('mv[,mv…]' [, 'F'|'C'|'?'])}. */
    record Refresh(List<Name> views, Method method) implements MviewCommand {
    }

    /** {@code CALL DBMS_MVIEW.PURGE_LOG('t' [, 'DELETE'])}: consumed rows, or every row with DELETE. */
    record PurgeLog(Name table, boolean all) implements MviewCommand {
    }

    /** How a view is refreshed: from the log, by running its query again, or fast when it can be. */
    enum Method {
        FAST, COMPLETE, FORCE;

        /** Oracle's one-letter method of DBMS_MVIEW.REFRESH: F, C, ? (force); also the words. */
        static Method ofLetter(String s) {
            return switch (s.trim().toUpperCase(java.util.Locale.ROOT)) {
                case "F", "FAST" -> FAST;
                case "C", "COMPLETE" -> COMPLETE;
                case "?", "FORCE", "" -> FORCE;
                default -> null;
            };
        }
    }

    /** A table or view name as the database stores it: schema null when not qualified. */
    record Name(String schema, String name) {
        @Override
        public String toString() {
            return schema == null ? name : schema + "." + name;
        }
    }
}
