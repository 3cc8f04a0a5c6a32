package io.jdbcrepl.node;

import io.jdbcrepl.config.ReplConfig;
import io.jdbcrepl.config.ReplUrl;
import io.jdbcrepl.intercept.SqlState;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Enumeration;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The vendor's JDBC driver behind a {@code jdbc:repl:} URL, and plain connections through it:
 * what {@code ReplDriver} wraps and what the apply side, the admin API and the command line open
 * for the driver's own work.
 */
public final class VendorDriver {

    /**
     * The {@code jdbc:repl:} driver itself, which must never be its own delegate; named, not
     * referenced: it sits above this package (it wraps what this package opens).
     */
    private static final String REPL_DRIVER = "io.jdbcrepl.ReplDriver";

    private VendorDriver() {
    }

    /**
     * A plain connection to the node's own database through the vendor driver, with the URL and
     * credentials the application's connection used: what the apply side writes with, so that
     * applied changes are not captured again (SPEC 4.4).
     */
    public static Connection open(ReplConfig config) throws SQLException {
        return open(config, new java.util.Properties());
    }

    /** {@link #open(ReplConfig)} with connection properties of its own, which the configuration's win over. */
    public static Connection open(ReplConfig config, java.util.Properties more) throws SQLException {
        java.util.Properties p = new java.util.Properties();
        p.putAll(more);
        p.putAll(config.delegateProperties());
        Connection raw = find(config).connect(config.delegateUrl(), p);
        if (raw == null) throw SqlState.UNABLE_TO_CONNECT.exception("No driver accepted " + ReplUrl.mask(config.delegateUrl()));
        return KeySession.prepare(raw, config); // the node's key scheme on the apply side's and the CLI's sessions too
    }

    /** The delegate: the class named by repl.driver, else the registered driver that accepts the URL. */
    public static Driver find(ReplConfig config) throws SQLException {
        String url = config.delegateUrl();
        Optional<String> named = config.driverClass();
        if (named.isPresent()) return namedDriver(named.get(), url);
        for (Enumeration<Driver> e = DriverManager.getDrivers(); e.hasMoreElements(); ) {
            Driver candidate = e.nextElement();
            if (!ours(candidate.getClass()) && accepts(candidate, url)) return candidate;
        }
        // Class loaders DriverManager cannot see (containers, plugins): ask ServiceLoader directly.
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        for (Driver candidate : ServiceLoader.load(Driver.class, context)) {
            if (!ours(candidate.getClass()) && accepts(candidate, url)) return candidate;
        }
        throw SqlState.UNABLE_TO_CONNECT.exception("No JDBC driver accepts " + ReplUrl.mask(url)
                + ": put the vendor's driver on the class path, or name its class with repl.driver");
    }

    private static boolean accepts(Driver driver, String url) {
        try {
            return driver.acceptsURL(url);
        } catch (SQLException e) {
            return false;
        }
    }

    private static Driver namedDriver(String className, String url) throws SQLException {
        Class<?> type = loadClass(className);
        if (!Driver.class.isAssignableFrom(type) || ours(type)) {
            throw SqlState.INVALID_PARAMETER_VALUE.exception("repl.driver=" + className + " is not a vendor java.sql.Driver");
        }
        Driver driver;
        try {
            // initialized only now that it is known to be a driver: no other class's static code runs
            Class.forName(className, true, type.getClassLoader());
            driver = (Driver) type.getConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
            throw SqlState.INVALID_PARAMETER_VALUE.exception("repl.driver=" + className + " cannot be instantiated: " + e, e);
        }
        if (!accepts(driver, url)) {
            throw SqlState.UNABLE_TO_CONNECT.exception("repl.driver=" + className + " does not accept " + ReplUrl.mask(url));
        }
        return driver;
    }

    private static Class<?> loadClass(String className) throws SQLException {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        for (ClassLoader loader : new ClassLoader[] {context, VendorDriver.class.getClassLoader()}) {
            if (loader == null) continue;
            try {
                return Class.forName(className, false, loader);
            } catch (ClassNotFoundException | LinkageError ignored) {
                // try the next loader
            }
        }
        throw SqlState.INVALID_PARAMETER_VALUE.exception("repl.driver=" + className + ": no such class on the class path");
    }

    /** Whether the class is the {@code jdbc:repl:} driver (final, so no subclass to look for). */
    private static boolean ours(Class<?> type) {
        return type.getName().equals(REPL_DRIVER);
    }
}
