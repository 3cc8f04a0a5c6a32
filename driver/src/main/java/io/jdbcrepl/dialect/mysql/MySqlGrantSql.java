package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.log.GrantSql;
import io.jdbcrepl.log.Grants;

import java.util.List;

/**
 * MySQL and MariaDB: users are {@code 'name'@'host'}; the change log's epochs ({@code repl_tx},
 * {@code repl_epoch}) need grants of their own, and a database grants access to its tables.
 */
final class MySqlGrantSql implements GrantSql {

    @Override
    public String target(String database, String appSchema) {
        return "MariaDB/MySQL database " + appSchema;
    }

    /** {@code name@host}, host {@code %} by default. */
    @Override
    public String role(Grants grants, String user) {
        int at = user.lastIndexOf('@');
        String name = at < 0 ? user : user.substring(0, at);
        String host = at < 0 ? "%" : user.substring(at + 1);
        return "'" + name.replace("'", "''") + "'@'" + host.replace("'", "''") + "'";
    }

    @Override
    public String createUser(String role) {
        return "CREATE USER " + role + " IDENTIFIED BY '<secret>';";
    }

    @Override
    public String applicationNote() {
        return " and stamps repl_tx under a shared lock on repl_epoch";
    }

    @Override
    public List<String> application(Grants grants, String role) {
        return List.of(grants.grant("SELECT, INSERT", "repl_tx", role),
                grants.grant("SELECT", "repl_epoch", role),
                "-- large UPDATEs and LOAD DATA stage rows in a temporary table of the application's database:",
                "GRANT CREATE TEMPORARY TABLES ON " + grants.log().quote(grants.appSchema()) + ".* TO " + role + ";");
    }

    @Override
    public List<String> apply(Grants grants, String role) {
        return List.of(grants.grant("SELECT, DELETE", "repl_tx", role),
                grants.grant("SELECT", "repl_epoch", role),
                "-- the replicated tables (here: every table of " + grants.appSchema() + "; narrow it to repl.apply.tables):",
                "GRANT SELECT, INSERT, UPDATE, DELETE ON " + grants.log().quote(grants.appSchema()) + ".* TO " + role + ";",
                "-- Optional: PROCESS lets the applier see application sessions waiting for its row locks and commit smaller",
                "-- groups while they do (hot rows during a catch-up); it also shows every session's statements:",
                "--   GRANT PROCESS ON *.* TO " + role + ";");
    }

    @Override
    public String readerNote() {
        return ", and closes epochs (UPDATE of repl_epoch's one row: how a reader knows every commit of an epoch has ended,"
                + " without binlog access)";
    }

    @Override
    public List<String> reader(Grants grants, String role) {
        return List.of("-- MariaDB lets a user connect to a database only with a privilege in it, and the peers' URLs name the"
                        + " application's database (its name maps the tables); SELECT is also what 'verify' reads:",
                "GRANT SELECT ON " + grants.log().quote(grants.appSchema()) + ".* TO " + role + ";",
                grants.grant("SELECT", "repl_tx", role),
                grants.grant("SELECT, UPDATE", "repl_epoch", role));
    }
}
