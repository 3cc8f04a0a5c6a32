package io.jdbcrepl;

import io.jdbcrepl.apply.InboundServer;
import io.jdbcrepl.apply.NodeAdmin;
import io.jdbcrepl.capture.session.CaptureSession;
import io.jdbcrepl.config.ReplConfig;
import io.jdbcrepl.config.ReplProperty;
import io.jdbcrepl.config.ReplUrl;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.mview.MviewSession;
import io.jdbcrepl.keys.KeyArrangement;
import io.jdbcrepl.node.KeySession;
import io.jdbcrepl.node.LocalDatabase;
import io.jdbcrepl.node.Node;
import io.jdbcrepl.node.VendorDriver;
import io.jdbcrepl.proxy.ProxyFactory;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The {@code jdbc:repl:} driver. {@code jdbc:repl:<rest>} is handed to the driver that accepts
 * {@code jdbc:<rest>} (or the class named by {@code repl.driver}), with every {@code repl.*} key
 * removed from the URL and the properties; the connection it returns is wrapped in a proxy.
 */
public final class ReplDriver implements Driver {

    public static final int MAJOR_VERSION = 0;
    public static final int MINOR_VERSION = 1;

    private static final Logger LOGGER = Logger.getLogger("io.jdbcrepl");
    private static ReplDriver registered;

    /**
     * Deregistered: connections through this instance (a pool that cached it) still work, but start no
     * background work, which would outlive the application that deregistered the driver.
     */
    private volatile boolean retired;

    static {
        try {
            register();
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Registers the driver with {@link DriverManager}; done once when the class loads. */
    public static synchronized void register() throws SQLException {
        if (registered != null) throw new IllegalStateException("jdbc:repl: driver is already registered");
        ReplDriver driver = new ReplDriver();
        DriverManager.registerDriver(driver, ReplDriver::deregistered);
        registered = driver;
    }

    /**
     * Removes the driver from {@link DriverManager}, as a web container does when an application
     * stops; the inbound servers of this JVM stop with it.
     */
    public static synchronized void deregister() throws SQLException {
        if (registered == null) throw new IllegalStateException("jdbc:repl: driver is not registered");
        DriverManager.deregisterDriver(registered); // calls deregistered(), which stops our threads
        registered = null;
    }

    public static synchronized boolean isRegistered() {
        return registered != null;
    }

    /**
     * Called by DriverManager when the driver is deregistered, by us or by a container: every
     * thread of the driver ends and its connections close before this returns (a few seconds at
     * most), so that no thread outlives the application that used the driver.
     */
    private static synchronized void deregistered() {
        if (registered != null) registered.retired = true;
        registered = null;
        Node.closeAll(); // first: no linger starts or stops anything any more
        InboundServer.shutdownAll();
    }

    /**
     * Every {@code jdbc:repl:} URL is ours, even one that does not parse: {@link #connect} then says
     * what is wrong with the URL, password masked, where DriverManager would print the whole URL.
     */
    @Override
    public boolean acceptsURL(String url) {
        return url != null && url.startsWith(ReplUrl.PREFIX);
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) return null; // another driver's URL (JDBC: return null, do not throw)
        ReplConfig config = ReplConfig.load(url, info == null ? new Properties() : info);
        String subprotocol = config.subprotocol();
        boolean captures = Dialect.ofSubprotocol(subprotocol).isPresent();
        if (config.replicationEnabled() && !captures) {
            throw SqlState.REFUSED.exception("repl.node=" + config.node().orElse("") + " on jdbc:repl:" + subprotocol + ": capture"
                    + " and apply work on PostgreSQL, MySQL, MariaDB and H2 (jdbc:repl:postgresql:, jdbc:repl:mysql:,"
                    + " jdbc:repl:mariadb:, jdbc:repl:h2:); without repl.node a jdbc:repl: URL is a pass-through to"
                    + " any JDBC driver");
        }
        Driver delegate = VendorDriver.find(config);
        Connection raw = delegate.connect(config.delegateUrl(), config.delegateProperties());
        if (raw == null) {
            throw SqlState.UNABLE_TO_CONNECT.exception("The driver " + delegate.getClass().getName() + " did not accept "
                    + ReplUrl.mask(config.delegateUrl()));
        }
        if (!captures) return ProxyFactory.wrap(raw, null, null, "pass-through"); // nothing of ours applies
        CaptureSession capture = null; // holds the node's lease from here until the connection closes
        try {
            Object admin = null;
            if (config.replicationEnabled()) {
                KeySession.prepare(raw, config); // SPEC 8.2: before the application sees the session
                LocalDatabase database = () -> KeySession.prepare(delegate.connect(config.delegateUrl(),
                        config.delegateProperties()), config);
                Node node = Node.of(config, raw, database);
                KeyArrangement.atFirstConnect(node, raw); // SPEC 8.2, once per node in this JVM
                io.jdbcrepl.capture.ddl.DdlCapture.atFirstConnect(node, raw); // SPEC 8.3: DDL a dead process left unlogged
                capture = new CaptureSession(node, raw);
                admin = new NodeAdmin(node);
                if (config.apply() && !config.peers().isEmpty()) {
                    synchronized (ReplDriver.class) { // not while deregistered() stops every server
                        if (!retired) InboundServer.ensureStarted(node);
                    }
                }
            }
            // materialized views work with and without repl.node (SPEC 6); without, only once a statement needs them
            MviewSession mviews = new MviewSession(capture, raw, config.delegateUrl(), config.schema().orElse(null));
            if (admin == null) return ProxyFactory.wrapOnDemand(raw, mviews, mviews.admin(), "pass-through");
            return ProxyFactory.wrap(raw, mviews, new Object[] {admin, mviews.admin()}, config.node().orElse("pass-through"));
        } catch (SQLException e) {
            if (capture != null) capture.afterClose();
            closeQuietly(raw, e);
            throw e;
        } catch (RuntimeException e) {
            if (capture != null) capture.afterClose();
            closeQuietly(raw, e);
            throw SqlState.UNABLE_TO_CONNECT.exception("Could not wrap the connection to " + ReplUrl.mask(config.delegateUrl()), e);
        }
    }

    private static void closeQuietly(Connection raw, Exception cause) {
        try {
            raw.close();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
        return ReplProperty.driverPropertyInfo(url, info == null ? new Properties() : info);
    }

    @Override
    public int getMajorVersion() {
        return MAJOR_VERSION;
    }

    @Override
    public int getMinorVersion() {
        return MINOR_VERSION;
    }

    /** A wrapper cannot vouch for the compliance of the driver it wraps. */
    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() {
        return LOGGER;
    }

    @Override
    public String toString() {
        return "jdbc:repl: driver " + MAJOR_VERSION + "." + MINOR_VERSION;
    }
}
