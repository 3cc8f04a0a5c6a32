package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.mview.LogTrigger;
import io.jdbcrepl.mview.MviewSql;

import java.util.List;

/**
 * H2's materialized-view logs: H2 runs Java triggers only, so the log's trigger is
 * {@link H2LogTrigger}, named by its class name in the SQL: loading that class where H2 is not
 * on the class path fails, so only H2 loads it, from its trigger. The trigger's name carries the
 * log table and whether the log has new values.
 */
final class H2MviewSql implements MviewSql {

    static final String TRIGGER_CLASS = "io.jdbcrepl.dialect.h2.H2LogTrigger";
    private static final String WITH_NEW = "$TN";
    private static final String WITHOUT_NEW = "$TO";

    /** The suffix of the trigger's name after the log table's. */
    static String triggerSuffix(boolean newValues) {
        return newValues ? WITH_NEW : WITHOUT_NEW;
    }

    /** Whether a trigger named by {@link #triggerSuffix} is of a log with new values. */
    static boolean hasNewValues(String triggerName) {
        return triggerName.endsWith(WITH_NEW);
    }

    @Override
    public String binaryType() {
        return "VARBINARY(255)";
    }

    @Override
    public String textType() {
        return "VARCHAR(1000000)";
    }

    @Override
    public List<String> createTriggers(LogTrigger t) {
        return List.of("CREATE TRIGGER " + t.name(triggerSuffix(t.newValues())) + " AFTER INSERT, UPDATE, DELETE ON "
                + t.master() + " FOR EACH ROW CALL '" + TRIGGER_CLASS + "'");
    }

    @Override
    public List<String> dropTriggers(LogTrigger t) {
        return List.of("DROP TRIGGER IF EXISTS " + t.name(triggerSuffix(t.newValues())));
    }

    @Override
    public String rowidReason() {
        return "H2's _ROWID_ is not kept by every table rebuild";
    }

    @Override
    public List<String> viewKey(String table, String index, String columns) {
        return List.of("CREATE UNIQUE INDEX " + index + " ON " + table + " (" + columns + ")");
    }
}
