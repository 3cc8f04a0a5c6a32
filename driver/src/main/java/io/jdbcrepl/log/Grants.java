package io.jdbcrepl.log;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The least privileges of the three roles a node involves (SPEC 8.7), as GRANT statements for one
 * vendor: the application user (captures into {@code repl_log}), the apply user (writes this
 * node's replicated tables and the apply side's tables, and purges this node's log), and the
 * peer-reading user (what the peers' appliers read this node's log with). Printing only: the
 * statements are for a person (or a script) to run as the owner of the driver's tables.
 */
public final class Grants {

    private final Dialect dialect;
    private final ChangeLogSchema log;
    /** PostgreSQL: the database (for CONNECT); MariaDB: the application's database. */
    private final String database;
    /** The schema of the application's tables (PostgreSQL); MariaDB: the application's database. */
    private final String appSchema;

    public Grants(Dialect dialect, String driverSchema, String database, String appSchema) {
        this.dialect = dialect;
        this.log = new ChangeLogSchema(dialect, driverSchema);
        this.database = database;
        this.appSchema = appSchema;
    }

    /** The statements, with comments; each statement on a line of its own, ending with a semicolon. */
    public List<String> statements(String node, String app, String apply, String reader) {
        if (dialect.kind() == Dialect.Kind.H2) {
            return List.of("-- H2: an embedded database has one user who owns everything; H2's rights (GRANT on tables and"
                    + " schemas) exist, but every node's driver and application share that user. No statements.");
        }
        List<String> out = new ArrayList<>();
        boolean pg = dialect.kind() == Dialect.Kind.POSTGRESQL;
        out.add("-- jdbc:repl least privileges for node " + node + " (" + (pg ? "PostgreSQL database " + database
                + ", application schema " + appSchema : "MariaDB/MySQL database " + appSchema) + ", driver tables in "
                + log.schema() + ").");
        out.add("-- Run as the owner of the driver's tables (the user that ran 'install'), after 'install'.");
        out.add("-- Create the users first if they do not exist:");
        for (String user : new java.util.LinkedHashSet<>(List.of(app, apply, reader))) {
            out.add("--   " + (pg ? "CREATE ROLE " + role(user) + " LOGIN PASSWORD '<secret>';"
                    : "CREATE USER " + role(user) + " IDENTIFIED BY '<secret>';"));
        }
        out.add("");
        out.add("-- Application user: capture writes repl_log" + (pg ? "" : " and stamps repl_tx under a shared lock"
                + " on repl_epoch") + " in the application's transactions; connect reads the version of the driver's tables.");
        out.add("-- It also needs SELECT on the replicated tables it changes (capture reads the rows it changes).");
        if (pg) connect(out, app);
        grant(out, pg ? "SELECT, INSERT" : "SELECT, INSERT", "repl_log", app);
        if (pg) {
            out.add("GRANT USAGE ON SEQUENCE " + log.table("repl_log_position_seq") + " TO " + role(app) + ";");
        } else {
            grant(out, "SELECT, INSERT", "repl_tx", app);
            grant(out, "SELECT", "repl_epoch", app);
            out.add("-- large UPDATEs and LOAD DATA stage rows in a temporary table of the application's database:");
            out.add("GRANT CREATE TEMPORARY TABLES ON " + log.quote(appSchema) + ".* TO " + role(app) + ";");
        }
        grant(out, "SELECT", "repl_version", app);
        out.add("");
        out.add("-- Apply user: the user of the process that runs the apply side (the application, unless repl.apply=false;"
                + " else the 'apply' command's --user). It writes the replicated tables, repl_progress, the error queue"
                + " and repl_conflict, purges this node's log and drops silent subscribers.");
        out.add("-- When the application runs the apply side (the default), grant these to the application user too.");
        if (pg) connect(out, apply);
        grant(out, "SELECT", "repl_version", apply);
        grant(out, "SELECT, INSERT, UPDATE", "repl_progress", apply);
        grant(out, "SELECT, UPDATE", "repl_subscriber", apply);
        for (String t : List.of("repl_error", "repl_error_lcr", "repl_conflict")) {
            grant(out, "SELECT, INSERT, UPDATE, DELETE", t, apply);
        }
        grant(out, "SELECT, DELETE", "repl_log", apply);
        if (pg) {
            out.add("GRANT USAGE ON ALL SEQUENCES IN SCHEMA " + log.quote(log.schema()) + " TO " + role(apply) + ";");
            out.add("-- the replicated tables (here: every table of " + appSchema + "; narrow it to repl.apply.tables):");
            out.add("GRANT USAGE ON SCHEMA " + log.quote(appSchema) + " TO " + role(apply) + ";");
            out.add("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + log.quote(appSchema) + " TO "
                    + role(apply) + ";");
        } else {
            grant(out, "SELECT, DELETE", "repl_tx", apply);
            grant(out, "SELECT", "repl_epoch", apply);
            out.add("-- the replicated tables (here: every table of " + appSchema + "; narrow it to repl.apply.tables):");
            out.add("GRANT SELECT, INSERT, UPDATE, DELETE ON " + log.quote(appSchema) + ".* TO " + role(apply) + ";");
            out.add("-- Optional: PROCESS lets the applier see application sessions waiting for its row locks and commit smaller");
            out.add("-- groups while they do (hot rows during a catch-up); it also shows every session's statements:");
            out.add("--   GRANT PROCESS ON *.* TO " + role(apply) + ";");
        }
        out.add("");
        out.add("-- Peer-reading user: what each peer names as repl.peer." + node + ".user. It reads the log and records"
                + " the peer's position in repl_subscriber" + (pg ? "" : ", and closes epochs (UPDATE of repl_epoch's"
                + " one row: how a reader knows every commit of an epoch has ended, without binlog access)") + ".");
        out.add("-- It never deletes: this node's apply user purges what every subscriber has consumed. Without the"
                + " repl_subscriber grant this node cannot purge its log (a WARN on the peer, and 'status' says so).");
        if (pg) connect(out, reader);
        grant(out, "SELECT", "repl_log", reader);
        if (!pg) {
            out.add("-- MariaDB lets a user connect to a database only with a privilege in it, and the peers' URLs name the"
                    + " application's database (its name maps the tables); SELECT is also what 'verify' reads:");
            out.add("GRANT SELECT ON " + log.quote(appSchema) + ".* TO " + role(reader) + ";");
            grant(out, "SELECT", "repl_tx", reader);
            grant(out, "SELECT, UPDATE", "repl_epoch", reader);
        }
        grant(out, "SELECT, INSERT, UPDATE", "repl_subscriber", reader);
        return out;
    }

    private void connect(List<String> out, String user) {
        out.add("GRANT CONNECT ON DATABASE " + log.quote(database) + " TO " + role(user) + ";");
        out.add("GRANT USAGE ON SCHEMA " + log.quote(log.schema()) + " TO " + role(user) + ";");
    }

    private void grant(List<String> out, String privileges, String table, String user) {
        out.add("GRANT " + privileges + " ON " + log.table(table) + " TO " + role(user) + ";");
    }

    /** A role as GRANT names it: PostgreSQL {@code "name"}; MariaDB {@code 'name'@'host'} ({@code name@host}, host {@code %} by default). */
    String role(String user) {
        if (dialect.kind() == Dialect.Kind.POSTGRESQL) return log.quote(user);
        int at = user.lastIndexOf('@');
        String name = at < 0 ? user : user.substring(0, at);
        String host = at < 0 ? "%" : user.substring(at + 1);
        return "'" + name.replace("'", "''") + "'@'" + host.replace("'", "''") + "'";
    }

    /**
     * The user lacks a privilege: PostgreSQL 42501; MySQL family 1142 (table), 1143 (column), 1044
     * (database), 1227 (global); H2 90096.
     */
    public static boolean denied(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (!(t instanceof SQLException s)) continue;
            if (SqlState.INSUFFICIENT_PRIVILEGE.is(s.getSQLState())) return true;
            int code = s.getErrorCode();
            if (code == 1142 || code == 1143 || code == 1044 || code == 1227 || code == 90096) return true;
        }
        return false;
    }
}
