package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.log.GrantSql;
import io.jdbcrepl.log.Grants;

import java.util.List;

/** PostgreSQL's roles: CONNECT to the database and USAGE on schemas first; the log's position is a sequence. */
final class PostgresGrantSql implements GrantSql {

    @Override
    public String target(String database, String appSchema) {
        return "PostgreSQL database " + database + ", application schema " + appSchema;
    }

    @Override
    public String role(Grants grants, String user) {
        return grants.log().quote(user);
    }

    @Override
    public String createUser(String role) {
        return "CREATE ROLE " + role + " LOGIN PASSWORD '<secret>';";
    }

    @Override
    public List<String> connect(Grants grants, String role) {
        return List.of("GRANT CONNECT ON DATABASE " + grants.log().quote(grants.database()) + " TO " + role + ";",
                "GRANT USAGE ON SCHEMA " + grants.log().quote(grants.log().schema()) + " TO " + role + ";");
    }

    @Override
    public List<String> application(Grants grants, String role) {
        return List.of("GRANT USAGE ON SEQUENCE " + grants.log().table("repl_log_position_seq") + " TO " + role + ";");
    }

    @Override
    public List<String> apply(Grants grants, String role) {
        String app = grants.log().quote(grants.appSchema());
        return List.of("GRANT USAGE ON ALL SEQUENCES IN SCHEMA " + grants.log().quote(grants.log().schema()) + " TO " + role + ";",
                "-- the replicated tables (here: every table of " + grants.appSchema() + "; narrow it to repl.apply.tables):",
                "GRANT USAGE ON SCHEMA " + app + " TO " + role + ";",
                "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + app + " TO " + role + ";");
    }
}
