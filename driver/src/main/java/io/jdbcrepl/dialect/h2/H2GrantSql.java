package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.log.GrantSql;
import io.jdbcrepl.log.Grants;

import java.util.Optional;

/** H2: nothing to grant. */
final class H2GrantSql implements GrantSql {

    @Override
    public Optional<String> nothingToGrant() {
        return Optional.of("-- H2: an embedded database has one user who owns everything; H2's rights (GRANT on tables and"
                + " schemas) exist, but every node's driver and application share that user. No statements.");
    }

    @Override
    public String target(String database, String appSchema) {
        return "H2 database " + database;
    }

    @Override
    public String role(Grants grants, String user) {
        return grants.log().quote(user);
    }

    @Override
    public String createUser(String role) {
        return "CREATE USER " + role + " PASSWORD '<secret>';";
    }
}
