package io.jdbcrepl.node;

import io.jdbcrepl.apply.ApplySchema;
import io.jdbcrepl.conflict.CustomHandlers;
import io.jdbcrepl.capture.CaptureException;
import io.jdbcrepl.capture.CaptureSettings;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.capture.sql.Dialect;
import io.jdbcrepl.config.ColumnSet;
import io.jdbcrepl.config.HandlerDefinition;
import io.jdbcrepl.config.LogGroup;
import io.jdbcrepl.config.ReplConfig;
import io.jdbcrepl.config.SupplementalMode;
import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.log.DriverSchema;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one replication node shares across its connections in this JVM: its configuration, the
 * metadata of its replicated tables, and the capture plans of plain SQL. Created on the first
 * connection with {@code repl.node}, which also installs the driver's tables.
 */
public final class Node {

    private static final int MAX_NODES = 64;
    /** Node per (node name, database URL, schema); bounded, least recently used first out. */
    private static final Map<String, Node> NODES = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Node> eldest) {
            return size() > MAX_NODES;
        }
    });

    private final String name;
    private final ReplConfig config;
    private final Dialect dialect;
    private final String logSchema;
    /** The current schema of the node's connections (MariaDB: database): where unqualified names point. */
    private final String homeSchema;
    private final ChangeLogSchema changeLog;
    private final Map<String, Optional<TableInfo>> tables = new ConcurrentHashMap<>();
    private final PlanCache planCache = new PlanCache(1024);
    private final LocalDatabase database;
    /** PostgreSQL: NOTIFY after captured commits; null elsewhere. */
    private final PostgresNotifier notifier;

    private Node(String name, ReplConfig config, Dialect dialect, String logSchema, String homeSchema,
            LocalDatabase database) {
        this.name = name;
        this.config = config;
        this.dialect = dialect;
        this.logSchema = logSchema;
        this.homeSchema = homeSchema;
        this.changeLog = new ChangeLogSchema(dialect, logSchema);
        this.database = database;
        this.notifier = dialect == Dialect.POSTGRESQL ? new PostgresNotifier(name, database) : null;
    }

    /**
     * The node of a connection with {@code repl.node}; the first connection creates it and installs
     * the driver's tables with {@code raw} (a fresh connection, before the application has it).
     * {@code database} opens more connections like {@code raw} for the driver's own work.
     */
    public static Node of(ReplConfig config, Connection raw, LocalDatabase database) throws SQLException {
        Dialect dialect = dialectOf(config.delegateUrl());
        String schema = DriverSchema.resolve(dialect, config.schema().orElse(null), raw);
        String key = config.node().orElseThrow() + "\u0000" + config.delegateUrl() + "\u0000" + schema;
        synchronized (NODES) {
            Node node = NODES.get(key);
            if (node != null && node.config.replProperties().equals(config.replProperties()) && node.logExists(raw)) {
                return node;
            }
            if (node != null && node.notifier != null) node.notifier.close();
            // SPEC 5.4: a custom handler class that cannot be instantiated fails connect (22023)
            ClassLoader context = Thread.currentThread().getContextClassLoader();
            CustomHandlers.load(config.dmlHandlers(), context != null ? context : Node.class.getClassLoader());
            node = new Node(config.node().orElseThrow(), config, dialect, schema, TableCatalog.currentSchema(raw, dialect),
                    database);
            node.changeLog.install(raw, config.install());
            new ApplySchema(dialect, node.changeLog).install(raw, config.install());
            NODES.put(key, node);
            return node;
        }
    }

    /**
     * Whether this node's change log is still in the database: an in-memory H2 database vanishes
     * with its last connection, and a test may drop and create a database under the same URL; the
     * node's tables and metadata are then made again. One cheap query per new physical connection.
     */
    private boolean logExists(Connection raw) {
        try (java.sql.Statement s = raw.createStatement()) {
            s.executeQuery("SELECT 1 FROM " + changeLog.table("repl_log") + " WHERE 1 = 0").close();
            return true;
        } catch (SQLException gone) {
            return false;
        }
    }

    static Dialect dialectOf(String delegateUrl) {
        int end = delegateUrl.indexOf(':', 5);
        return Dialect.fromSubprotocol(end < 0 ? "" : delegateUrl.substring(5, end));
    }

    public String name() {
        return name;
    }

    /** Connections of the node's own database, outside capture. */
    public LocalDatabase database() {
        return database;
    }

    /** A transaction of this node committed captured changes: wake the readers of its log. */
    void committed() {
        CommitSignal.of(name).fire();
        if (notifier != null) notifier.request();
    }

    /** Stops the nodes' background threads (when the driver is deregistered); they start again on demand. */
    /**
     * Ends the nodes' background threads and their connections ({@code Repl.shutdown()}); the nodes
     * stay, and a later commit starts its notifier again.
     */
    public static void stopAll() {
        synchronized (NODES) {
            for (Node node : NODES.values()) {
                if (node.notifier != null) node.notifier.stop();
            }
        }
    }

    public static void closeAll() {
        synchronized (NODES) {
            for (Node node : NODES.values()) {
                if (node.notifier != null) node.notifier.close();
            }
            NODES.clear();
        }
    }

    public ReplConfig config() {
        return config;
    }

    /**
     * MariaDB/MySQL: whether the connectors report found rows, not changed ones, as update counts
     * (their default; {@code useAffectedRows=true} in the URL or the connect properties turns it off).
     */
    /** Whether the delegate is MySQL Connector/J ({@code jdbc:mysql:}), not MariaDB's. */
    boolean mysqlConnector() {
        return config.delegateUrl().startsWith("jdbc:mysql:");
    }

    boolean reportsFoundRows() {
        String value = config.delegateProperties().getProperty("useAffectedRows");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("[?&]useAffectedRows=([^&]*)")
                .matcher(config.delegateUrl());
        if (value == null && m.find()) value = m.group(1);
        return value == null || !value.trim().equalsIgnoreCase("true");
    }

    public Dialect dialect() {
        return dialect;
    }

    private volatile long h2DeltaTableRows = -1;

    /**
     * H2: the most rows a query over a delta table ({@code FINAL TABLE}/{@code OLD TABLE}) returns
     * whole. H2 2.4 buffers a larger result to disk and loses its last rows there; an in-memory
     * database never buffers (unlimited). A file database's {@code MAX_MEMORY_ROWS} when set, else
     * H2's default of 40,000 rows per GB of heap: this JVM's heap when embedded, and for a server,
     * whose heap the driver cannot see, that of a 256 MB one (10,000 rows: loud rather than short).
     */
    long h2DeltaTableRows(java.sql.Connection connection) throws SQLException {
        long limit = h2DeltaTableRows;
        if (limit >= 0) return limit;
        try (java.sql.Statement s = connection.createStatement();
                java.sql.ResultSet rs = s.executeQuery("SELECT DATABASE_PATH(), (SELECT SETTING_VALUE FROM"
                        + " INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'MAX_MEMORY_ROWS')")) {
            rs.next();
            if (rs.getString(1) == null) limit = Long.MAX_VALUE;
            else if (rs.getString(2) != null) limit = Long.parseLong(rs.getString(2).trim());
            else if (config.delegateUrl().startsWith("jdbc:h2:tcp:") || config.delegateUrl().startsWith("jdbc:h2:ssl:")) limit = 10_000;
            else limit = 40_000L * Runtime.getRuntime().maxMemory() / (1L << 30);
        }
        h2DeltaTableRows = limit;
        return limit;
    }

    public ChangeLogSchema changeLog() {
        return changeLog;
    }

    /** The schema (MariaDB: database) of the driver's tables, as stored. */
    public String logSchema() {
        return logSchema;
    }

    /** The current schema of the node's connections, as stored: the application's home schema. */
    public String homeSchema() {
        return homeSchema;
    }

    /**
     * Whether changes to the table are captured ({@link ReplConfig#isReplicated}); never a table in
     * the driver's schema, whatever {@code repl.tables} says, unless {@code repl.schema} names the
     * application's own schema (the driver's tables beside its tables, known by their names there).
     */
    public boolean isReplicated(String schema, String table, String currentSchema) {
        String actual = schema != null ? schema : currentSchema;
        if (actual != null && actual.equalsIgnoreCase(logSchema) && !logSchema.equals(homeSchema)) return false;
        return config.isReplicated(schema, table, currentSchema, foldsToUpper());
    }

    public PlanCache planCache() {
        return planCache;
    }

    public boolean foldsToUpper() {
        return dialect == Dialect.H2;
    }

    /** A replicated table's metadata, loaded once; empty when the table does not exist. */
    public Optional<TableInfo> table(Connection raw, String schema, String table) throws SQLException {
        String key = key(schema, table);
        Optional<TableInfo> known = tables.get(key);
        if (known != null) return known;
        List<String> keyOverride = config.keyColumns(schema, table, schema, foldsToUpper())
                .map(cols -> cols.stream().map(dialect::fold).toList()).orElse(null);
        Optional<TableInfo> loaded;
        try {
            loaded = TableCatalog.load(raw, dialect, schema, table, keyOverride);
        } catch (IllegalArgumentException e) {
            throw new CaptureException("repl.key." + table + "=" + String.join(",", keyOverride) + ": " + e.getMessage());
        }
        if (loaded.isPresent() && loaded.get().key().isEmpty()) {
            throw new CaptureException("Table " + loaded.get().qualifiedName() + " is replicated but has no primary key:"
                    + " add one, name a substitute key with repl.key." + table + "=<columns>, or leave the table out"
                    + " with repl.exclude");
        }
        if (loaded.isEmpty()) return loaded; // not cached: the table may be created later
        settings(loaded.get()); // fails now on unknown columns in log groups or timestamps
        tables.put(key, loaded);
        return loaded;
    }

    /** Forgets one table's metadata (its plans stay: they are checked again by the database). */
    public void forgetTable(String schema, String table) {
        tables.remove(key(schema, table));
    }

    private static String key(String schema, String table) {
        return schema + "\u0000" + table;
    }

    /** Forgets table metadata, after DDL the driver saw. */
    public void forgetTables() {
        tables.clear();
        planCache.clear();
    }

    /** The capture settings of a table, resolved to its stored column names. */
    public CaptureSettings settings(TableInfo table) throws CaptureException {
        String schema = table.schema();
        String name = table.name();
        List<List<String>> always = new ArrayList<>();
        List<List<String>> conditional = new ArrayList<>();
        for (LogGroup group : config.logGroups(schema, name, schema, foldsToUpper())) {
            List<String> columns = columns(table, group.columns(), "repl.loggroup." + name + "." + group.name());
            (group.always() ? always : conditional).add(columns);
        }
        // Each prebuilt handler's column list is a conditional log group here (SPEC 3.3), so that
        // the peers' symmetric handlers get the old values they compare.
        for (HandlerDefinition handler : config.handlers(schema, name, schema, foldsToUpper())) {
            ColumnSet set = handler.columns();
            if (!set.star()) conditional.add(columns(table, set.columns(), "repl.handler." + handler.name() + ".columns"));
        }
        String ts = config.timestampColumn(schema, name, schema, foldsToUpper()).orElse(null);
        String timestamp = null;
        if (ts != null) {
            timestamp = columns(table, List.of(ts), "repl.timestamp." + name).get(0);
        }
        return new CaptureSettings(config.supplemental() == SupplementalMode.ALL, always, conditional, timestamp);
    }

    private CaptureException unknownColumn(TableInfo table, String column, String key) {
        return new CaptureException(key + " names column " + column + ", which " + table.qualifiedName()
                + " does not have (its columns: " + table.columns().stream().map(c -> c.name()).toList() + ")");
    }

    private List<String> columns(TableInfo table, List<String> names, String key) throws CaptureException {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            String folded = dialect.fold(n);
            Optional<String> stored = table.column(folded).map(c -> c.name());
            if (stored.isEmpty()) throw unknownColumn(table, n, key);
            out.add(stored.get());
        }
        return out;
    }

    @Override
    public String toString() {
        return "Node[" + name + ", " + dialect.name().toLowerCase(Locale.ROOT) + ", schema " + logSchema + "]";
    }
}
