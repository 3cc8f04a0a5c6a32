package io.jdbcrepl.node;

import io.jdbcrepl.capture.CaptureException;
import io.jdbcrepl.capture.CaptureSettings;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.config.ColumnSet;
import io.jdbcrepl.config.HandlerDefinition;
import io.jdbcrepl.config.LogGroup;
import io.jdbcrepl.config.ReplConfig;
import io.jdbcrepl.config.SupplementalMode;
import io.jdbcrepl.conflict.CustomHandlers;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.log.CommitSignal;
import io.jdbcrepl.log.DriverSchema;
import io.jdbcrepl.log.SchemaInstaller;
import io.jdbcrepl.metrics.NodeMetrics;
import io.jdbcrepl.metrics.ReplMetrics;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * What one replication node shares across its connections in this JVM: its configuration, the
 * metadata of its replicated tables, and what other packages keep per node ({@link #attachment}:
 * capture's plans of plain SQL). Created on the first connection with {@code repl.node}, which also
 * installs the driver's tables.
 */
public final class Node {

    private static final int MAX_NODES = 64;
    /** Node per (node name, database URL, schema, user); bounded, least recently used first out. */
    private static final Map<String, Node> NODES = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Node> eldest) {
            return size() > MAX_NODES;
        }
    });

    /**
     * How long a node's background work (its inbound server, its notifier) outlives the node's
     * last connection: a pool that closes and opens connections now and then does not restart it
     * each time, and an application that stops (a redeploy) leaves no thread behind for long.
     */
    static final long LINGER_MILLIS = Long.getLong("io.jdbcrepl.lingerMillis", 5_000L);
    /** Leases (open connections, the command line's apply) per node key; guarded by NODES. */
    private static final Map<String, Integer> LEASES = new HashMap<>();
    /** The thread waiting out the linger of a node key without leases; guarded by NODES. */
    private static final Map<String, Thread> LINGERING = new HashMap<>();
    /**
     * Node keys whose inbound server the linger stopped: the next lease starts it again, also where
     * it was started with {@code startApply()} and the connections say {@code repl.apply=false};
     * guarded by NODES.
     */
    private static final java.util.Set<String> IDLE_STOPPED = new java.util.HashSet<>();
    /** Counts {@link #closeAll}: a lease taken before it is not counted any more; guarded by NODES. */
    private static long generation;

    /** Node name, database URL, schema and user: the key of {@link #NODES}, {@link #LEASES} and the inbound servers. */
    private final String key;
    private final String name;
    private final ReplConfig config;
    private final Dialect dialect;
    private final String logSchema;
    /** The current schema of the node's connections (MariaDB: database): where unqualified names point. */
    private final String homeSchema;
    private final ChangeLogSchema changeLog;
    private final Map<String, Optional<TableInfo>> tables = new ConcurrentHashMap<>();
    /** What other packages keep per node, one object per class ({@link #attachment}). */
    private final Map<Class<?>, Object> attachments = new ConcurrentHashMap<>();
    private final LocalDatabase database;
    /** Tells peers in other processes of captured commits (PostgreSQL: NOTIFY), where the database can. */
    private final Notifier.Sender notifier;
    /** What capture and apply count for this node's name in this JVM (SPEC 8.5). */
    private final NodeMetrics metrics;

    private Node(String key, String name, ReplConfig config, Dialect dialect, String logSchema, String homeSchema,
            LocalDatabase database) {
        this.key = key;
        this.name = name;
        this.config = config;
        this.dialect = dialect;
        this.logSchema = logSchema;
        this.homeSchema = homeSchema;
        this.changeLog = new ChangeLogSchema(dialect, logSchema);
        this.database = database;
        this.notifier = dialect.part(Notifier.class).sender(name, database);
        this.metrics = ReplMetrics.node(name);
    }

    /**
     * The node of a connection with {@code repl.node}; the first connection creates it and installs
     * the driver's tables with {@code raw} (a fresh connection, before the application has it).
     * {@code database} opens more connections like {@code raw} for the driver's own work.
     */
    public static Node of(ReplConfig config, Connection raw, LocalDatabase database) throws SQLException {
        Dialect dialect = Dialect.forUrl(config.delegateUrl());
        String schema = DriverSchema.resolve(dialect, config.schema().orElse(null), raw);
        // the user too: an application user and an apply user of one node in one JVM (SPEC 8.7) each
        // get a node whose own connections (apply, purge) are theirs, not the first comer's
        String key = serverKey(config, schema) + "\u0000" + config.delegateProperties().getProperty("user", "");
        synchronized (NODES) {
            Node node = NODES.get(key);
            if (node != null && node.config.replProperties().equals(config.replProperties()) && node.logExists(raw)) {
                return node;
            }
            if (node != null) node.notifier.close(0);
            // SPEC 5.4: a custom handler class that cannot be instantiated fails connect (22023)
            ClassLoader context = Thread.currentThread().getContextClassLoader();
            CustomHandlers.load(config.dmlHandlers(), context != null ? context : Node.class.getClassLoader());
            node = new Node(key, config.node().orElseThrow(), config, dialect, schema,
                    TableCatalog.currentSchema(raw, dialect), database);
            new SchemaInstaller(dialect, node.changeLog).install(raw, config.install());
            // SPEC 5.3: keys naming columns of tables that exist now fail connect (22023); others at first use
            TableRules.checkConfigured(config, raw, dialect);
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

    public String name() {
        return name;
    }

    /** Things this node says once (a warning per kind): each key is new only once. */
    private final java.util.Set<String> said = ConcurrentHashMap.newKeySet();

    /** Whether {@code key} is asked for the first time on this node. */
    public boolean firstTime(String key) {
        return said.size() < 1000 && said.add(key);
    }

    /** Connections of the node's own database, outside capture. */
    public LocalDatabase database() {
        return database;
    }

    /** A transaction of this node committed captured changes: wake the readers of its log. */
    public void committed() {
        CommitSignal.of(name).fire();
        notifier.request();
    }

    /** Node name, database URL, schema and user, as one string: what identifies the node in this JVM. */
    public String key() {
        return key;
    }

    /**
     * Node name, database URL and schema, without the user: at most one inbound server per such key
     * runs in a JVM, whichever user's node started it, and every user's status and admin see it.
     */
    public String serverKey() {
        return serverKey(config, logSchema);
    }

    private static String serverKey(ReplConfig config, String schema) {
        return config.node().orElseThrow() + "\u0000" + config.delegateUrl() + "\u0000" + schema;
    }

    /** The apply side's servers, once it has loaded. */
    private static volatile InboundServers inbound = InboundServers.NONE;

    /** Called by the apply side when it loads: the servers that leases pause and resume. */
    public static void inboundServers(InboundServers servers) {
        inbound = servers;
    }

    /**
     * Ends the nodes' background threads and their connections ({@code Repl.shutdown()}): every
     * inbound server, then the change notifiers. The nodes stay; a later connection with
     * {@code repl.peers} starts the inbound server again, a later commit its notifier.
     */
    public static void stopAll() {
        inbound.stopAll();
        synchronized (NODES) {
            for (Node node : NODES.values()) node.notifier.stop();
        }
    }

    /** Forgets every node and ends their threads (the driver was deregistered), waiting a little for them. */
    public static void closeAll() {
        List<Notifier.Sender> notifiers = new ArrayList<>();
        synchronized (NODES) {
            for (Node node : NODES.values()) notifiers.add(node.notifier);
            NODES.clear();
            LEASES.clear();
            generation++; // leases of connections still open end as no-ops
            LINGERING.values().forEach(Thread::interrupt);
            LINGERING.clear();
            IDLE_STOPPED.clear();
        }
        long deadline = System.nanoTime() + 2_000_000_000L;
        for (Notifier.Sender n : notifiers) n.close(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
    }

    /**
     * A use of the node that keeps its background work running: an open connection, the command
     * line's {@code apply}, a {@code waitForPeers}. When the last lease is closed the work stops
     * after {@link #LINGER_MILLIS}, unless a new lease comes first; the next connection starts it again.
     */
    public Lease lease() {
        Lease lease;
        boolean resume;
        synchronized (NODES) {
            LEASES.merge(key, 1, Integer::sum);
            Thread lingering = LINGERING.remove(key);
            if (lingering != null) lingering.interrupt();
            resume = IDLE_STOPPED.remove(key);
            lease = new Lease(this, generation);
        }
        if (resume) inbound.resume(this);
        return lease;
    }

    /** One use of the node; closing it more than once is harmless. */
    public static final class Lease implements AutoCloseable {
        private final Node node;
        private final long generation;
        private final AtomicBoolean closed = new AtomicBoolean();

        private Lease(Node node, long generation) {
            this.node = node;
            this.generation = generation;
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) node.released(generation);
        }
    }

    private void released(long leasedIn) {
        synchronized (NODES) {
            Integer leases = LEASES.get(key);
            if (leases == null || leasedIn != generation) return; // the driver was deregistered meanwhile
            if (leases > 1) {
                LEASES.put(key, leases - 1);
                return;
            }
            LEASES.remove(key);
            Thread linger = new Thread(this::linger, "jdbc-repl-linger-" + name);
            linger.setDaemon(true);
            LINGERING.put(key, linger);
            linger.start();
        }
    }

    /** Waits out the linger, then stops the node's work unless a lease came meanwhile. */
    private void linger() {
        try {
            Thread.sleep(LINGER_MILLIS);
        } catch (InterruptedException leased) {
            return;
        }
        Runnable stopServer;
        synchronized (NODES) {
            if (LINGERING.get(key) != Thread.currentThread()) return;
            LINGERING.remove(key);
            // taken out under the lock: a connection arriving from now on starts a new one
            stopServer = inbound.detach(this);
            if (stopServer != null) IDLE_STOPPED.add(key);
            Node current = NODES.get(key);
            if (current != null) current.notifier.stop();
        }
        if (stopServer != null) stopServer.run();
    }

    public NodeMetrics metrics() {
        return metrics;
    }

    public ReplConfig config() {
        return config;
    }

    public Dialect dialect() {
        return dialect;
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

    /**
     * The object of class {@code type} kept for this node, made by {@code create} on first use: state
     * that other packages share across the node's connections (capture's plan cache), which lives
     * and dies with the node without the node knowing what it is. Read without a lock.
     */
    public <T> T attachment(Class<T> type, Supplier<? extends T> create) {
        Object value = attachments.get(type);
        if (value == null) value = attachments.computeIfAbsent(type, t -> create.get());
        return type.cast(value);
    }

    public boolean foldsToUpper() {
        return dialect.foldsToUpper();
    }

    /** A replicated table's metadata, loaded once; empty when the table does not exist. */
    public Optional<TableInfo> table(Connection raw, String schema, String table) throws SQLException {
        String key = key(schema, table);
        Optional<TableInfo> known = tables.get(key);
        if (known != null) return known;
        List<String> keyOverride = config.keyColumns(schema, table, schema, foldsToUpper())
                .map(cols -> cols.stream().map(dialect::fold).toList()).orElse(null);
        Optional<TableInfo> loaded = TableCatalog.load(raw, dialect, schema, table, null);
        if (loaded.isEmpty()) return loaded; // not cached: the table may be created later
        // A table created after connect: its keys' columns are checked at its first use (SPEC 5.3)
        TableRules.check(config, dialect, loaded.get(), schema);
        try {
            if (keyOverride != null) loaded = TableCatalog.load(raw, dialect, schema, table, keyOverride);
        } catch (IllegalArgumentException e) {
            throw new CaptureException("repl.key." + table + "=" + String.join(",", keyOverride) + ": " + e.getMessage());
        }
        if (loaded.isEmpty()) return loaded; // not cached: the table may be created later
        try {
            loaded = Optional.of(loaded.get().keyedByComparableColumns()); // SPEC 3.3: Oracle's rule without a key
        } catch (IllegalArgumentException e) {
            throw new CaptureException(e.getMessage());
        }
        for (String k : loaded.get().key()) {
            if (loaded.get().column(k).map(io.jdbcrepl.capture.ColumnInfo::isLargeObject).orElse(false)) {
                throw new CaptureException("Table " + loaded.get().qualifiedName() + " is replicated with large object"
                        + " column " + k + " in its key: a large object's number differs on every node, so it cannot"
                        + " find a row there; key the table by other columns (repl.key." + table + "=<columns>)");
            }
        }
        settings(loaded.get()); // fails now on unknown columns in log groups or timestamps
        tables.put(key, loaded);
        return loaded;
    }

    /** Schemas (MariaDB: databases) of the system, whose tables are never replicated. */
    private static final java.util.Set<String> SYSTEM_SCHEMAS = java.util.Set.of("information_schema", "pg_catalog",
            "pg_toast", "mysql", "performance_schema", "sys");

    /**
     * The replicated tables of this database that have neither primary nor substitute key, as
     * {@code schema.table}: replicated by every comparable column (SPEC 3.3), which {@code status} lists.
     * MariaDB/MySQL: the tables of the node's database (a server holds many databases, of other nodes too).
     */
    public List<String> keylessTables(Connection raw) throws SQLException {
        String current = TableCatalog.currentSchema(raw, dialect);
        List<String[]> candidates = new ArrayList<>();
        boolean catalogs = dialect.schemasAreCatalogs();
        String catalog = catalogs ? current : null;
        try (java.sql.ResultSet rs = raw.getMetaData().getTables(catalog, null, "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                String schema = rs.getString(catalogs ? "TABLE_CAT" : "TABLE_SCHEM");
                String table = rs.getString("TABLE_NAME");
                if (schema == null || SYSTEM_SCHEMAS.contains(schema.toLowerCase(Locale.ROOT))) continue;
                if (!config.isReplicated(schema, table, current, foldsToUpper())) continue;
                if (config.keyColumns(schema, table, current, foldsToUpper()).isPresent()) continue;
                candidates.add(new String[] {schema, table});
            }
        }
        List<String> out = new ArrayList<>();
        for (String[] t : candidates) {
            Optional<TableInfo> info = TableCatalog.load(raw, dialect, t[0], t[1], null);
            if (info.isPresent() && info.get().key().isEmpty()) out.add(t[0] + "." + t[1]);
        }
        return out;
    }

    /** Forgets one table's metadata (its plans stay: they are checked again by the database). */
    public void forgetTable(String schema, String table) {
        tables.remove(key(schema, table));
    }

    private static String key(String schema, String table) {
        return schema + "\u0000" + table;
    }

    /** Forgets table metadata, after DDL the driver saw (capture forgets its plans itself). */
    public void forgetTables() {
        tables.clear();
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
