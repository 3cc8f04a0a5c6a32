package io.jdbcrepl.migration;

import io.jdbcrepl.ReplDriver;
import io.jdbcrepl.config.ReplUrl;

import liquibase.database.core.UnsupportedDatabase;

/**
 * Liquibase's database entry for {@code jdbc:repl:} URLs: Liquibase asks every database it knows for
 * the driver of a URL, and this one answers {@link ReplDriver}. It never claims a connection: a
 * {@code jdbc:repl:} connection reports its vendor's product name, so Liquibase's database for that
 * vendor (PostgreSQL, MariaDB, MySQL, H2...) runs the changelog.
 */
public final class ReplLiquibaseDatabase extends UnsupportedDatabase {

    /** A name of its own: Liquibase keeps one database per short name, the one of highest priority. */
    @Override
    public String getShortName() {
        return "jdbc-repl";
    }

    @Override
    public String getDefaultDriver(String url) {
        return url != null && url.startsWith(ReplUrl.PREFIX) ? ReplDriver.class.getName() : null;
    }
}
