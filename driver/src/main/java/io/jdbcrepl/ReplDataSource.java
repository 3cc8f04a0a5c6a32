package io.jdbcrepl;

import io.jdbcrepl.config.ReplUrl;
import io.jdbcrepl.intercept.SqlState;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import java.util.TreeSet;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} over the {@code jdbc:repl:} driver, for connection pools configured with a
 * DataSource class (HikariCP's {@code dataSourceClassName}) and for frameworks that inject a
 * DataSource bean. Each {@code getConnection} is one {@link ReplDriver#connect} call; this class
 * pools nothing.
 *
 * <p>Bean properties, each with a one-argument String setter so that HikariCP can set them:
 * <pre>
 * dataSourceClassName=io.jdbcrepl.ReplDataSource
 * dataSource.url=jdbc:repl:postgresql://db1.example.com:5432/hr?repl.node=dbs1&amp;repl.peers=dbs2
 * dataSource.user=hr
 * dataSource.password=…
 * dataSource.config=classpath:repl.properties
 * </pre>
 * ({@code username}/{@code password} in HikariCP's own settings reach
 * {@link #getConnection(String, String)} instead, which works as well.)
 *
 * <p><b>Where the {@code repl.*} keys go.</b> HikariCP turns every {@code dataSource.<name>} key of a
 * {@code dataSourceClassName} into a call of {@code set<Name>}, so {@code dataSource.repl.node=dbs1}
 * fails at pool start (there is no {@code setRepl.node}). Put the keys in the URL's query string
 * ({@code ?repl.node=dbs1&repl.peers=dbs2}, URL-encoded) or in the file named by {@code config}
 * ({@code file:} or {@code classpath:}, the same as {@code repl.config}). In code, they may also be
 * given with {@link #setProperty(String, String)} or {@link #setProperties(Properties)}. The
 * driver's precedence applies: URL, then these properties, then the file. (With HikariCP's
 * {@code jdbcUrl} instead of this class, {@code dataSource.repl.*} keys do reach the driver, as
 * the connection Properties.)
 *
 * <p>The password is never logged, printed or part of {@link #toString()}, and there is no getter
 * for it. Setters are meant for configuration time; {@code getConnection} may be called from any
 * thread.
 */
public class ReplDataSource implements DataSource {

    private final ReplDriver driver = new ReplDriver();
    private final Properties extraProperties = new Properties();
    private volatile String url;
    private volatile String user;
    private volatile String password;
    private volatile String config;
    private volatile int loginTimeoutSeconds;
    private volatile PrintWriter logWriter;

    /**
     * The {@code jdbc:repl:<subprotocol>:…} URL; {@code repl.*} keys may be in its query string.
     *
     * @throws IllegalArgumentException for a URL of another driver, so a pool fails at start
     */
    public void setUrl(String url) {
        if (url != null && !ReplUrl.accepts(url)) {
            throw new IllegalArgumentException("ReplDataSource needs a " + ReplUrl.PREFIX
                    + "<subprotocol>:… URL, such as jdbc:repl:postgresql://host/db, not '" + ReplUrl.mask(url) + "'");
        }
        this.url = url;
    }

    public String getUrl() {
        return url;
    }

    /** The database user, passed to the driver as the {@code user} property. */
    public void setUser(String user) {
        this.user = user;
    }

    public String getUser() {
        return user;
    }

    /** The database password, passed to the driver as the {@code password} property. */
    public void setPassword(String password) {
        this.password = password;
    }

    /** Where more {@code repl.*} keys are: {@code file:…} or {@code classpath:…} (the {@code repl.config} key). */
    public void setConfig(String config) {
        this.config = config;
    }

    public String getConfig() {
        return config;
    }

    /**
     * Replaces the extra connection properties: {@code repl.*} keys and the vendor driver's own.
     * {@code user}, {@code password} and {@code config}, when set, win over the same keys here.
     */
    public void setProperties(Properties properties) {
        synchronized (extraProperties) {
            extraProperties.clear();
            if (properties != null) {
                properties.stringPropertyNames().forEach(name -> extraProperties.setProperty(name, properties.getProperty(name)));
            }
        }
    }

    /** Adds one extra connection property; a null value removes it. */
    public void setProperty(String name, String value) {
        synchronized (extraProperties) {
            if (value == null) {
                extraProperties.remove(name);
            } else {
                extraProperties.setProperty(name, value);
            }
        }
    }

    @Override
    public Connection getConnection() throws SQLException {
        return connect(user, password);
    }

    /** A connection as {@code user}, whatever {@link #setUser} and {@link #setPassword} say. */
    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        return connect(user, password);
    }

    private Connection connect(String user, String password) throws SQLException {
        String url = this.url;
        if (url == null) {
            throw SqlState.UNABLE_TO_CONNECT.exception("ReplDataSource has no URL: call setUrl(\"jdbc:repl:…\") "
                    + "(HikariCP: dataSource.url)");
        }
        Properties properties = new Properties();
        synchronized (extraProperties) {
            properties.putAll(extraProperties);
        }
        if (config != null) {
            properties.setProperty("repl.config", config);
        }
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        Connection connection = driver.connect(url, properties);
        if (connection == null) { // setUrl checked the URL, so this is the driver's contract broken
            throw SqlState.UNABLE_TO_CONNECT.exception("The jdbc:repl: driver did not accept '" + ReplUrl.mask(url) + "'");
        }
        return connection;
    }

    /**
     * Kept and returned as DataSource requires; not forwarded, since every vendor names its own
     * timeout (pgjdbc {@code loginTimeout} and {@code connectTimeout}, MariaDB
     * {@code connectTimeout}): give those with {@link #setProperty} or in the URL.
     */
    @Override
    public void setLoginTimeout(int seconds) {
        this.loginTimeoutSeconds = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeoutSeconds;
    }

    /** Kept and returned as DataSource requires; the driver logs through its own logger, not here. */
    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public Logger getParentLogger() {
        return driver.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface != null && iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("ReplDataSource is not a wrapper for " + (iface == null ? null : iface.getName()));
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface != null && iface.isInstance(this);
    }

    /** The URL with any password in it masked, the user and the config; never the password. */
    @Override
    public String toString() {
        return "ReplDataSource[url=" + ReplUrl.mask(url) + ", user=" + user + ", config=" + config
                + ", properties=" + propertyNames() + "]";
    }

    private TreeSet<String> propertyNames() {
        synchronized (extraProperties) {
            return new TreeSet<>(extraProperties.stringPropertyNames());
        }
    }
}
