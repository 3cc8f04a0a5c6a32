package io.jdbcrepl.log;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * The least privileges of the three roles a node involves (SPEC 8.7), as GRANT statements for one
 * vendor: the application user (captures into {@code repl_log}), the apply user (writes this
 * node's replicated tables and the apply side's tables, and purges this node's log), and the
 * peer-reading user (what the peers' appliers read this node's log with). Printing only: the
 * statements are for a person (or a script) to run as the owner of the driver's tables.
 */
public final class Grants {

    private final GrantSql sql;
    private final ChangeLogSchema log;
    /** PostgreSQL: the database (for CONNECT); MariaDB: the application's database. */
    private final String database;
    /** The schema of the application's tables (PostgreSQL); MariaDB: the application's database. */
    private final String appSchema;

    public Grants(Dialect dialect, String driverSchema, String database, String appSchema) {
        this.sql = dialect.part(GrantSql.class);
        this.log = new ChangeLogSchema(dialect, driverSchema);
        this.database = database;
        this.appSchema = appSchema;
    }

    /** The statements, with comments; each statement on a line of its own, ending with a semicolon. */
    public List<String> statements(String node, String app, String apply, String reader) {
        Optional<String> nothing = sql.nothingToGrant();
        if (nothing.isPresent()) return List.of(nothing.get());
        List<String> out = new ArrayList<>();
        out.add("-- jdbc:repl least privileges for node " + node + " (" + sql.target(database, appSchema) + ", driver tables in "
                + log.schema() + ").");
        out.add("-- Run as the owner of the driver's tables (the user that ran 'install'), after 'install'.");
        out.add("-- Create the users first if they do not exist:");
        for (String user : new LinkedHashSet<>(List.of(app, apply, reader))) {
            out.add("--   " + sql.createUser(role(user)));
        }
        out.add("");
        out.add("-- Application user: capture writes repl_log" + sql.applicationNote()
                + " in the application's transactions; connect reads the version of the driver's tables.");
        out.add("-- It also needs SELECT on the replicated tables it changes (capture reads the rows it changes).");
        out.addAll(sql.connect(this, role(app)));
        out.add(grant("SELECT, INSERT", "repl_log", role(app)));
        out.addAll(sql.application(this, role(app)));
        out.add(grant("SELECT", "repl_version", role(app)));
        out.add("-- Its first connection in a JVM records the node's key scheme (repl.keys.*) for the peers to compare.");
        out.add(grant("SELECT, INSERT, DELETE", "repl_keys", role(app)));
        out.add("-- DDL through the driver (repl.ddl=replicate) records itself there while it runs (SPEC 8.3).");
        out.add(grant("SELECT, INSERT, DELETE", "repl_ddl", role(app)));
        out.add("");
        out.add("-- Apply user: the user of the process that runs the apply side (the application, unless repl.apply=false;"
                + " else the 'apply' command's --user). It writes the replicated tables, repl_progress, the error queue"
                + " and repl_conflict, purges this node's log and drops silent subscribers.");
        out.add("-- When the application runs the apply side (the default), grant these to the application user too.");
        out.addAll(sql.connect(this, role(apply)));
        out.add(grant("SELECT", "repl_version", role(apply)));
        out.add(grant("SELECT, INSERT, UPDATE", "repl_progress", role(apply)));
        out.add(grant("SELECT, INSERT, UPDATE, DELETE", "repl_join", role(apply)));
        out.add(grant("SELECT, INSERT, UPDATE, DELETE", "repl_ddl", role(apply)));
        out.add(grant("SELECT, UPDATE", "repl_subscriber", role(apply)));
        for (String t : List.of("repl_error", "repl_error_lcr", "repl_conflict")) {
            out.add(grant("SELECT, INSERT, UPDATE, DELETE", t, role(apply)));
        }
        out.add(grant("SELECT, DELETE", "repl_log", role(apply)));
        out.addAll(sql.apply(this, role(apply)));
        out.add("");
        out.add("-- Peer-reading user: what each peer names as repl.peer." + node + ".user. It reads the log and records"
                + " the peer's position in repl_subscriber" + sql.readerNote() + ".");
        out.add("-- It never deletes: this node's apply user purges what every subscriber has consumed. Without the"
                + " repl_subscriber grant this node cannot purge its log (a WARN on the peer, and 'status' says so).");
        out.addAll(sql.connect(this, role(reader)));
        out.add(grant("SELECT", "repl_log", role(reader)));
        out.add(grant("SELECT", "repl_keys", role(reader)));
        out.addAll(sql.reader(this, role(reader)));
        out.add(grant("SELECT, INSERT, UPDATE", "repl_subscriber", role(reader)));
        out.add("-- A node joining from this one (join --from " + node + ") reads, as this user, the replicated tables"
                + " and what this node has applied from each peer: grant SELECT on the replicated tables too.");
        out.add(grant("SELECT", "repl_progress", role(reader)));
        return out;
    }

    /** {@code GRANT privileges ON <driver table> TO role;} */
    public String grant(String privileges, String table, String role) {
        return "GRANT " + privileges + " ON " + log.table(table) + " TO " + role + ";";
    }

    /** The driver's tables, as SQL names them. */
    public ChangeLogSchema log() {
        return log;
    }

    /** PostgreSQL: the database (for CONNECT); MariaDB: the application's database. */
    public String database() {
        return database;
    }

    /** The schema of the application's tables (PostgreSQL); MariaDB: the application's database. */
    public String appSchema() {
        return appSchema;
    }

    /** A role as GRANT names it: PostgreSQL {@code "name"}; MariaDB {@code 'name'@'host'} ({@code name@host}, host {@code %} by default). */
    String role(String user) {
        return sql.role(this, user);
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
