package io.jdbcrepl.it.support;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * A throwaway database named {@code repl_it_<label>_<random>}, created on its vendor's server
 * (H2: an in-memory database kept open with {@code DB_CLOSE_DELAY=-1}) and dropped by
 * {@link #close()}, after ending every session still connected to it.
 */
public final class TestDatabase implements AutoCloseable {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String PREFIX = "repl_it_";
    private static final int MAX_LABEL = 30;

    private final Vendor vendor;
    private final String name;
    private final ServerAddress server; // null for H2
    private final String rawUrl;
    private boolean closed;

    private TestDatabase(Vendor vendor, String name, ServerAddress server, String rawUrl) {
        this.vendor = vendor;
        this.name = name;
        this.server = server;
        this.rawUrl = rawUrl;
    }

    /** Creates a new, empty database for {@code vendor}; {@code label} says which test it belongs to. */
    public static TestDatabase create(Vendor vendor, String label) throws SQLException {
        String name = PREFIX + sanitize(label) + "_" + HexFormat.of().formatHex(randomBytes(4));
        return switch (vendor.server()) {
            case POSTGRESQL -> {
                ServerAddress a = DatabaseServers.postgres();
                try (Connection admin = DatabaseServers.openAdmin(Vendor.Server.POSTGRESQL);
                        Statement s = admin.createStatement()) {
                    s.execute("CREATE DATABASE " + name + " ENCODING 'UTF8' TEMPLATE template0");
                }
                yield new TestDatabase(vendor, name, a, "jdbc:postgresql://" + a.host() + ":" + a.port() + "/" + name);
            }
            case MARIADB -> {
                ServerAddress a = DatabaseServers.mariaDb();
                try (Connection admin = DatabaseServers.openAdmin(Vendor.Server.MARIADB);
                        Statement s = admin.createStatement()) {
                    s.execute("CREATE DATABASE " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
                }
                yield new TestDatabase(vendor, name, a,
                        "jdbc:" + vendor.subprotocol() + "://" + a.host() + ":" + a.port() + "/" + name);
            }
            case NONE -> {
                // LOCK_TIMEOUT: concurrent tests update the same rows; H2's default (1 s) is too short
                // for a shared, 2-core machine.
                TestDatabase db = new TestDatabase(vendor, name, null,
                        "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
                db.openRaw().close(); // creates it
                yield db;
            }
        };
    }

    /** Creates one database per node: {@code <label>_n1}, {@code <label>_n2}, ... */
    public static List<TestDatabase> createNodes(Vendor vendor, String label, int count) throws SQLException {
        List<TestDatabase> nodes = new ArrayList<>();
        try {
            for (int i = 1; i <= count; i++) {
                nodes.add(create(vendor, label + "_n" + i));
            }
            return nodes;
        } catch (SQLException | RuntimeException e) {
            for (TestDatabase db : nodes) {
                try {
                    db.close();
                } catch (SQLException | RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    public Vendor vendor() {
        return vendor;
    }

    /** The database's name as created (PostgreSQL and MariaDB: lower case). */
    public String name() {
        return name;
    }

    /** The schema of the driver's tables with the default {@code repl.schema} (MariaDB: a database). */
    public String driverSchema() {
        return DriverTables.schema(vendor, name);
    }

    /** A driver table ({@code repl_log}, ...) qualified with {@link #driverSchema()}, for SQL on a raw connection. */
    public String driverTable(String table) {
        return driverSchema() + "." + table;
    }

    /** {@code sql} with the driver tables it names qualified ({@link DriverTables#qualify(String, String)}). */
    public String driverTables(String sql) {
        return DriverTables.qualify(driverSchema(), sql);
    }

    /** The plain vendor URL, without credentials. */
    public String rawUrl() {
        return rawUrl;
    }

    /** {@code jdbc:repl:} + the raw URL without its {@code jdbc:}: a pure pass-through. */
    public String replUrl() {
        return "jdbc:repl:" + rawUrl.substring("jdbc:".length());
    }

    /**
     * The repl URL with {@code replProperties} (and any other parameters) added to its query string,
     * URL-encoded, after {@code ?} or {@code &}. For H2 they also go after a {@code ?}, following
     * H2's own {@code ;KEY=value} settings: the repl driver strips every {@code repl.*} parameter
     * before H2 sees the URL.
     */
    public String replUrl(Map<String, String> replProperties) {
        return withQuery(replUrl(), replProperties);
    }

    /** Appends {@code parameters}, URL-encoded, to {@code url}'s query string. */
    public static String withQuery(String url, Map<String, String> parameters) {
        if (parameters.isEmpty()) {
            return url;
        }
        StringBuilder sb = new StringBuilder(url);
        char separator = url.indexOf('?') < 0 ? '?' : '&';
        for (Map.Entry<String, String> e : parameters.entrySet()) {
            sb.append(separator).append(encode(e.getKey())).append('=').append(encode(e.getValue()));
            separator = '&';
        }
        return sb.toString();
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    public String user() {
        return server == null ? "sa" : server.user();
    }

    public String password() {
        return server == null ? "" : server.password();
    }

    /**
     * The keys by which another node reaches this database as its peer {@code name}:
     * {@code repl.peer.<name>.url}, {@code .user} and, when there is one, {@code .password}.
     */
    public java.util.Map<String, String> asPeer(String name) {
        java.util.Map<String, String> p = new java.util.LinkedHashMap<>();
        p.put("repl.peer." + name + ".url", rawUrl());
        p.put("repl.peer." + name + ".user", user());
        if (!password().isEmpty()) p.put("repl.peer." + name + ".password", password());
        return p;
    }

    /** {@code user} and {@code password}, as a connection pool or an application passes them. */
    public Properties credentials() {
        Properties p = new Properties();
        p.setProperty("user", user());
        p.setProperty("password", password());
        return p;
    }

    /** A connection through the vendor's own driver. */
    public Connection openRaw() throws SQLException {
        return DriverManager.getConnection(rawUrl, credentials());
    }

    /** A pass-through connection through {@code jdbc:repl:}. */
    public Connection openRepl() throws SQLException {
        return openRepl(new Properties());
    }

    /** A connection through {@code jdbc:repl:} with {@code properties} (repl.* keys and others) added to the credentials. */
    public Connection openRepl(Properties properties) throws SQLException {
        Properties p = credentials();
        p.putAll(properties);
        return DriverManager.getConnection(replUrl(), p);
    }

    /** A connection through {@code jdbc:repl:} with the repl.* keys in the URL. */
    public Connection openRepl(Map<String, String> replProperties) throws SQLException {
        return DriverManager.getConnection(replUrl(replProperties), credentials());
    }

    /**
     * Client sessions connected to this database now, as the server counts them (PostgreSQL:
     * client backends in {@code pg_stat_activity}; MariaDB: {@code information_schema.processlist};
     * H2: {@code information_schema.sessions}, without the session that asks).
     */
    public int serverConnections() throws SQLException {
        return switch (vendor.server()) {
            case POSTGRESQL -> countOnAdmin("SELECT count(*) FROM pg_stat_activity WHERE datname = ? "
                    + "AND backend_type = 'client backend' AND pid <> pg_backend_pid()");
            case MARIADB -> countOnAdmin("SELECT count(*) FROM information_schema.processlist WHERE db = ? "
                    + "AND id <> connection_id()");
            case NONE -> {
                try (Connection c = openRaw(); Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery(
                                "SELECT count(*) FROM information_schema.sessions WHERE session_id <> session_id()")) {
                    rs.next();
                    yield rs.getInt(1);
                }
            }
        };
    }

    /**
     * Waits until at most {@code max} sessions are connected, and returns the last count (which
     * the caller asserts). A client's close reaches the server asynchronously: the backend of a
     * connection closed a moment ago can still be listed, so this polls, bounded by {@code timeout},
     * and returns as soon as the condition holds.
     */
    public int awaitServerConnectionsAtMost(int max, Duration timeout) throws SQLException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int count = serverConnections();
        while (count > max && System.nanoTime() < deadline) {
            pause();
            count = serverConnections();
        }
        return count;
    }

    /** Same as {@link #awaitServerConnectionsAtMost(int, Duration)} with 10 seconds. */
    public int awaitServerConnectionsAtMost(int max) throws SQLException {
        return awaitServerConnectionsAtMost(max, Duration.ofSeconds(10));
    }

    private static void pause() {
        try {
            Thread.sleep(25); // a poll interval, not a synchronisation: the loop checks the condition
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the server", e);
        }
    }

    private int countOnAdmin(String sql) throws SQLException {
        try (Connection admin = DatabaseServers.openAdmin(vendor.server());
                PreparedStatement ps = admin.prepareStatement(sql)) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** Ends every session on the database, then drops it. Idempotent. */
    @Override
    public synchronized void close() throws SQLException {
        if (closed) {
            return;
        }
        switch (vendor.server()) {
            case POSTGRESQL -> {
                try (Connection admin = DatabaseServers.openAdmin(Vendor.Server.POSTGRESQL)) {
                    try (PreparedStatement ps = admin.prepareStatement(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ? "
                                    + "AND pid <> pg_backend_pid()")) {
                        ps.setString(1, name);
                        ps.executeQuery().close();
                    }
                    try (Statement s = admin.createStatement()) {
                        s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
                    }
                }
            }
            case MARIADB -> {
                try (Connection admin = DatabaseServers.openAdmin(Vendor.Server.MARIADB)) {
                    List<Long> sessions = new ArrayList<>();
                    try (PreparedStatement ps = admin.prepareStatement(
                            "SELECT id FROM information_schema.processlist WHERE db = ? AND id <> connection_id()")) {
                        ps.setString(1, name);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) sessions.add(rs.getLong(1));
                        }
                    }
                    try (Statement s = admin.createStatement()) {
                        for (long id : sessions) {
                            try {
                                s.execute("KILL " + id);
                            } catch (SQLException gone) {
                                // ended by itself meanwhile
                            }
                        }
                        s.execute("DROP DATABASE IF EXISTS " + name);
                        s.execute("DROP DATABASE IF EXISTS " + driverSchema()); // the driver's tables (repl.schema)
                    }
                }
            }
            case NONE -> {
                try (Connection c = openRaw(); Statement s = c.createStatement()) {
                    s.execute("SHUTDOWN"); // closes every session and discards the in-memory database
                }
            }
        }
        closed = true;
    }

    @Override
    public String toString() {
        return vendor + " " + name;
    }

    private static String sanitize(String label) {
        String s = label.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        return s.length() > MAX_LABEL ? s.substring(0, MAX_LABEL) : s;
    }

    private static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }
}
