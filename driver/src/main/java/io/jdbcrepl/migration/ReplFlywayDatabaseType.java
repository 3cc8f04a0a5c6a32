package io.jdbcrepl.migration;

import io.jdbcrepl.ReplDriver;
import io.jdbcrepl.config.ReplUrl;

import java.sql.Connection;
import java.sql.Types;
import java.util.Optional;
import java.util.Properties;
import org.flywaydb.core.api.ResourceProvider;
import org.flywaydb.core.api.configuration.Configuration;
import org.flywaydb.core.internal.database.DatabaseType;
import org.flywaydb.core.internal.database.DatabaseTypeRegister;
import org.flywaydb.core.internal.database.base.BaseDatabaseType;
import org.flywaydb.core.internal.database.base.Database;
import org.flywaydb.core.internal.jdbc.JdbcConnectionFactory;
import org.flywaydb.core.internal.jdbc.StatementInterceptor;
import org.flywaydb.core.internal.parser.Parser;
import org.flywaydb.core.internal.parser.ParsingContext;

/**
 * Flyway's plugin for {@code jdbc:repl:<vendor>:} URLs, for the vendors Flyway handles as
 * {@code jdbc:<vendor>:}: it names {@link ReplDriver} as their driver and passes the vendor type's
 * default connection properties on. Flyway then picks the database type by the connection's product
 * name, which is the vendor's, so the vendor's type migrates it, with a URL or a DataSource alike.
 *
 * <p>It extends no vendor's type on purpose: Flyway loads every plugin listed in a jar, and a class
 * whose superclass sits in a vendor module the application lacks would fail Flyway as a whole.
 */
public final class ReplFlywayDatabaseType extends BaseDatabaseType {

    @Override
    public String getName() {
        return "jdbc:repl";
    }

    @Override
    public int getNullType() {
        return Types.NULL;
    }

    @Override
    public boolean handlesJDBCUrl(String url) {
        return vendorType(url).isPresent();
    }

    @Override
    public String getDriverClass(String url, ClassLoader classLoader) {
        return ReplDriver.class.getName();
    }

    /** The driver is this jar's own: no other class to try when it cannot be loaded. */
    @Override
    public String getBackupDriverClass(String url, ClassLoader classLoader) {
        return null;
    }

    @Override
    public void setDefaultConnectionProps(String url, Properties props, ClassLoader classLoader) {
        vendorType(url).ifPresent(type -> type.setDefaultConnectionProps(vendorUrl(url), props, classLoader));
    }

    /**
     * Never claims a connection: a {@code jdbc:repl:} connection reports its vendor's product name,
     * and the vendor's type, with its SQL parser and history table, is the one to migrate it.
     */
    @Override
    public boolean handlesDatabaseProductNameAndVersion(String databaseProductName, String databaseProductVersion,
            Connection connection) {
        return false;
    }

    @Override
    public Database createDatabase(Configuration configuration, JdbcConnectionFactory jdbcConnectionFactory,
            StatementInterceptor statementInterceptor) {
        throw new UnsupportedOperationException(notForConnections());
    }

    @Override
    public Parser createParser(Configuration configuration, ResourceProvider resourceProvider,
            ParsingContext parsingContext) {
        throw new UnsupportedOperationException(notForConnections());
    }

    private static String notForConnections() {
        return "jdbc:repl: only names the driver; the connection's vendor type migrates it";
    }

    /** The type Flyway has for {@code jdbc:<rest>} when the URL is {@code jdbc:repl:<rest>}. */
    private static Optional<DatabaseType> vendorType(String url) {
        if (url == null || !url.startsWith(ReplUrl.PREFIX)) return Optional.empty();
        return DatabaseTypeRegister.getDatabaseTypesForUrl(vendorUrl(url), null).stream()
                .filter(DatabaseType.class::isInstance).map(DatabaseType.class::cast).findFirst();
    }

    private static String vendorUrl(String url) {
        return "jdbc:" + url.substring(ReplUrl.PREFIX.length());
    }
}
