package io.jdbcrepl.config;

import io.jdbcrepl.dialect.Dialect;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The configuration of one {@code connect}: the delegate's URL and properties, and every
 * {@code repl.*} key typed and checked. Immutable; built by {@link #load}, which fails with the
 * first bad key (SQLState 42704 unknown key, 22023 bad value, 08001 bad URL).
 */
public final class ReplConfig {

    private final String delegateUrl;
    private final Properties delegateProperties;
    private final Map<String, String> raw;
    private final ConfigReader r;
    private final Map<ReplProperty, Object> effective = new EnumMap<>(ReplProperty.class);
    private final Map<String, List<String>> keyColumns;
    private final Map<String, List<LogGroup>> logGroups;
    private final Map<String, String> timestampColumns;
    private final Map<String, ColumnSet> noCompare;

    private ReplConfig(String delegateUrl, Properties delegateProperties, Map<String, String> raw, ConfigReader r) {
        this.delegateUrl = delegateUrl;
        this.delegateProperties = delegateProperties;
        this.raw = Collections.unmodifiableMap(raw);
        this.r = r;
        this.keyColumns = byText(r.keyColumns);
        this.logGroups = byText(r.logGroups);
        this.timestampColumns = byText(r.timestamps);
        this.noCompare = byText(r.noCompare);
        for (ReplProperty p : ReplProperty.values()) {
            if (!p.isTemplate() && p.defaultValue() != null) {
                effective.put(p, parseDefault(p));
            }
        }
        effective.putAll(r.plain);
    }

    /**
     * Reads the URL's repl.* parameters, then {@code info}'s, then the repl.config file's; the
     * first source that has a key wins. {@code info} is only read.
     */
    public static ReplConfig load(String url, Properties info) throws SQLException {
        ReplUrl parsed = ReplUrl.parse(url);
        Map<String, String> fromInfo = new TreeMap<>();
        Properties delegate = new Properties();
        if (info != null) {
            copy(info, fromInfo, delegate);
        }
        Map<String, String> merged = new TreeMap<>();
        Map<String, String> origins = new HashMap<>();
        String location = parsed.replProperties().getOrDefault(ReplProperty.CONFIG.key(),
                fromInfo.get(ReplProperty.CONFIG.key()));
        if (location != null) {
            String where = "repl.config=" + location;
            try {
                Values.parse(ReplProperty.CONFIG, ReplProperty.CONFIG.key(), location);
                add(merged, origins, ConfigFile.read(location.trim()), where);
            } catch (SQLException e) {
                throw new SQLException(e.getMessage() + " [from "
                        + (parsed.replProperties().containsKey(ReplProperty.CONFIG.key()) ? "the URL" : "the connect Properties")
                        + "]", e.getSQLState(), e);
            }
        }
        add(merged, origins, fromInfo, "the connect Properties");
        add(merged, origins, parsed.replProperties(), "the URL");
        return new ReplConfig(parsed.delegateUrl(), delegate, merged, new ConfigReader(merged, origins));
    }

    /** Splits {@code info} into repl.* keys and the rest, defaults included, without touching it. */
    private static void copy(Properties info, Map<String, String> repl, Properties delegate) {
        for (String name : info.stringPropertyNames()) {
            delegate.setProperty(name, info.getProperty(name));
        }
        for (Map.Entry<Object, Object> e : info.entrySet()) {
            // HikariCP's addDataSourceProperty takes Objects: keep non-String values too
            if (!(e.getKey() instanceof String) || !(e.getValue() instanceof String)) {
                delegate.put(e.getKey(), e.getValue());
            }
        }
        for (Object k : new ArrayList<>(delegate.keySet())) {
            if (k instanceof String && ((String) k).startsWith("repl.")) {
                repl.put((String) k, String.valueOf(delegate.get(k)));
                delegate.remove(k);
            }
        }
    }

    private static void add(Map<String, String> merged, Map<String, String> origins, Map<String, String> keys,
            String origin) {
        for (Map.Entry<String, String> e : keys.entrySet()) {
            merged.put(e.getKey(), e.getValue());
            origins.put(e.getKey(), origin);
        }
    }

    private static <V> Map<String, V> byText(Map<TableName, V> map) {
        Map<String, V> out = new LinkedHashMap<>();
        map.forEach((t, v) -> out.put(t.toString(), v));
        return Collections.unmodifiableMap(out);
    }

    /** {@code jdbc:<rest>} without the repl.* parameters. */
    public String delegateUrl() {
        return delegateUrl;
    }

    /** The delegate's subprotocol: postgresql, mysql, mariadb, h2, or another driver's. */
    public String subprotocol() {
        return Dialect.subprotocol(delegateUrl);
    }

    /** A fresh copy of the connect Properties without any repl.* key, for the delegate driver. */
    public Properties delegateProperties() {
        Properties copy = new Properties();
        copy.putAll(delegateProperties);
        return copy;
    }

    /** Whether repl.node is set; without it the connection is a pure pass-through. */
    public boolean replicationEnabled() {
        return r.plain.containsKey(ReplProperty.NODE);
    }

    public Optional<String> node() {
        return Optional.ofNullable((String) r.plain.get(ReplProperty.NODE));
    }

    @SuppressWarnings("unchecked")
    public List<TablePattern> tables() {
        return (List<TablePattern>) value(ReplProperty.TABLES);
    }

    @SuppressWarnings("unchecked")
    public List<TablePattern> exclude() {
        return (List<TablePattern>) r.plain.getOrDefault(ReplProperty.EXCLUDE, List.of());
    }

    /** As {@link #isReplicated(String, String, String, boolean)} with the current schema unknown. */
    public boolean isReplicated(String schema, String table, boolean foldsToUpper) {
        return isReplicated(schema, table, null, foldsToUpper);
    }

    /**
     * Whether changes to the table are captured: it matches repl.tables and not repl.exclude, and
     * is not one of the driver's own tables ({@code repl_*}, {@code MLOG$_*}).
     *
     * @param schema the table's schema, or null when referenced without one
     * @param currentSchema the connection's current schema, or null when unknown (then a pattern
     *     without a schema matches that table in any schema)
     */
    public boolean isReplicated(String schema, String table, String currentSchema, boolean foldsToUpper) {
        String lower = table.toLowerCase(Locale.ROOT);
        if (lower.startsWith("repl_") || lower.startsWith("mlog$_")) {
            return false;
        }
        return tables().stream().anyMatch(p -> p.matches(schema, table, currentSchema, foldsToUpper))
                && exclude().stream().noneMatch(p -> p.matches(schema, table, currentSchema, foldsToUpper));
    }

    /**
     * Whether this node accepts a peer's changes to the table (SPEC 8.7): it matches repl.apply.tables,
     * or without that key it is replicated here ({@link #isReplicated}).
     */
    @SuppressWarnings("unchecked")
    public boolean acceptsApply(String schema, String table, String currentSchema, boolean foldsToUpper) {
        List<TablePattern> apply = (List<TablePattern>) r.plain.get(ReplProperty.APPLY_TABLES);
        if (apply == null) return isReplicated(schema, table, currentSchema, foldsToUpper);
        String lower = table.toLowerCase(Locale.ROOT);
        if (lower.startsWith("repl_") || lower.startsWith("mlog$_")) return false;
        return apply.stream().anyMatch(p -> p.matches(schema, table, currentSchema, foldsToUpper));
    }

    /** The peers as listed in repl.peers, in order. */
    public List<String> peers() {
        return List.copyOf(r.peers.keySet());
    }

    /**
     * @param name a peer listed in repl.peers (case-insensitive)
     * @throws IllegalArgumentException for a name that is not a peer
     */
    public PeerConfig peer(String name) {
        for (PeerConfig p : r.peers.values()) {
            if (Identifiers.same(p.name(), name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("No peer " + name + " in repl.peers=" + String.join(",", peers()));
    }

    /** repl.apply, else true when there are peers. */
    public boolean apply() {
        Object v = r.plain.get(ReplProperty.APPLY);
        return v != null ? (Boolean) v : !r.peers.isEmpty();
    }

    public int applyBatch() {
        return (Integer) value(ReplProperty.APPLY_BATCH);
    }

    public Duration applyPoll() {
        return (Duration) value(ReplProperty.APPLY_POLL);
    }

    public InstallMode install() {
        return InstallMode.valueOf(((String) value(ReplProperty.INSTALL)).toUpperCase(Locale.ROOT));
    }

    /** repl.schema, or empty for the connection's current schema. */
    public Optional<String> schema() {
        return Optional.ofNullable((String) r.plain.get(ReplProperty.SCHEMA));
    }

    /** repl.join: the peer this node joins the mesh from (SPEC 8.1), or empty. */
    public Optional<String> join() {
        return Optional.ofNullable((String) r.plain.get(ReplProperty.JOIN));
    }

    /** repl.driver, or empty to find the delegate driver from the URL. */
    public Optional<String> driverClass() {
        return Optional.ofNullable((String) r.plain.get(ReplProperty.DRIVER));
    }

    /** repl.ddl: whether DDL on replicated tables is logged for the peers (and theirs applied here). */
    public boolean replicatesDdl() {
        return "replicate".equalsIgnoreCase((String) value(ReplProperty.DDL));
    }

    public UnsupportedMode unsupported() {
        return UnsupportedMode.valueOf(((String) value(ReplProperty.UNSUPPORTED)).toUpperCase(Locale.ROOT));
    }

    public SupplementalMode supplemental() {
        return SupplementalMode.valueOf(((String) value(ReplProperty.SUPPLEMENTAL)).toUpperCase(Locale.ROOT));
    }

    /** repl.key.&lt;table&gt; by table as written. */
    public Map<String, List<String>> keyColumns() {
        return keyColumns;
    }

    /** repl.loggroup.&lt;table&gt;.&lt;group&gt; by table as written. */
    public Map<String, List<LogGroup>> logGroups() {
        return logGroups;
    }

    /** repl.timestamp.&lt;table&gt; by table as written. */
    public Map<String, String> timestampColumns() {
        return timestampColumns;
    }

    /** repl.nocompare.&lt;table&gt; by table as written. */
    public Map<String, ColumnSet> noCompare() {
        return noCompare;
    }

    /**
     * Every table a table-level key names ({@code repl.key}, {@code repl.loggroup},
     * {@code repl.timestamp}, {@code repl.nocompare}, {@code repl.handler.*.table}), as written:
     * the tables whose columns connect checks against the database (SPEC 5.3).
     */
    public java.util.Set<TableName> configuredTables() {
        java.util.Set<TableName> out = new java.util.LinkedHashSet<>();
        out.addAll(r.keyColumns.keySet());
        out.addAll(r.logGroups.keySet());
        out.addAll(r.timestamps.keySet());
        out.addAll(r.noCompare.keySet());
        for (HandlerDefinition h : r.handlers) out.add(h.table());
        return out;
    }

    /** The substitute key of a table; a key with a schema wins over one without. */
    public Optional<List<String>> keyColumns(String schema, String table, String currentSchema, boolean foldsToUpper) {
        return lookup(r.keyColumns, schema, table, currentSchema, foldsToUpper);
    }

    public List<LogGroup> logGroups(String schema, String table, String currentSchema, boolean foldsToUpper) {
        return lookup(r.logGroups, schema, table, currentSchema, foldsToUpper).orElse(List.of());
    }

    public Optional<String> timestampColumn(String schema, String table, String currentSchema, boolean foldsToUpper) {
        return lookup(r.timestamps, schema, table, currentSchema, foldsToUpper);
    }

    public Optional<ColumnSet> noCompare(String schema, String table, String currentSchema, boolean foldsToUpper) {
        return lookup(r.noCompare, schema, table, currentSchema, foldsToUpper);
    }

    /** Prebuilt handlers, sorted by name. */
    public List<HandlerDefinition> handlers() {
        return r.handlers;
    }

    /** The prebuilt handlers of one table (any operation and conflict). */
    public List<HandlerDefinition> handlers(String schema, String table, String currentSchema, boolean foldsToUpper) {
        return r.handlers.stream().filter(h -> h.table().matches(schema, table, currentSchema, foldsToUpper)).toList();
    }

    /** Custom handlers, sorted by name. */
    public List<DmlHandlerDefinition> dmlHandlers() {
        return r.dmlHandlers;
    }

    public List<DmlHandlerDefinition> dmlHandlers(String schema, String table, String currentSchema,
            boolean foldsToUpper) {
        return r.dmlHandlers.stream().filter(h -> h.table().matches(schema, table, currentSchema, foldsToUpper))
                .toList();
    }

    /** SPEC 8.5: lag above which a health check reports DOWN. */
    public Duration healthLag() {
        return (Duration) value(ReplProperty.HEALTH_LAG);
    }

    public Duration fkRetry() {
        return (Duration) value(ReplProperty.FK_RETRY);
    }

    /** repl.log.key's signer (SPEC 8.7), or null when LCRs are neither signed nor checked. */
    public LogSignature logSignature() {
        return (LogSignature) value(ReplProperty.LOG_KEY);
    }

    /** SPEC 8.2: repl.keys.step and repl.keys.offset, or empty when the node has no key scheme. */
    public Optional<KeyScheme> keyScheme() {
        return Optional.ofNullable(r.keys);
    }

    /** repl.peer.timeout: connect and socket timeout of every connection to a peer. */
    public Duration peerTimeout() {
        return (Duration) value(ReplProperty.PEER_TIMEOUT);
    }

    public Duration retention() {
        return (Duration) value(ReplProperty.RETENTION);
    }

    /**
     * The effective repl.* keys as given (no defaults), sorted, for diagnostics: secrets as ****,
     * and password parameters inside values (a peer's URL) masked too.
     */
    public Map<String, String> replProperties() {
        Map<String, String> out = new TreeMap<>();
        raw.forEach((k, v) -> out.put(k, isSecret(k) ? ConfigErrors.MASK : ReplUrl.mask(v)));
        return Collections.unmodifiableMap(out);
    }

    /** Unmasked, for getPropertyInfo (which drops secrets itself). */
    Map<String, String> rawReplProperties() {
        return raw;
    }

    private static boolean isSecret(String key) {
        return ReplProperty.forKey(key).map(ReplProperty::isSecret).orElse(false) || ConfigErrors.looksSecret(key);
    }

    private Object value(ReplProperty p) {
        return effective.get(p);
    }

    private static Object parseDefault(ReplProperty p) {
        try {
            return Values.parse(p, p.key(), p.defaultValue());
        } catch (SQLException e) {
            throw new IllegalStateException("default of " + p.key() + " does not parse", e);
        }
    }

    private static <V> Optional<V> lookup(Map<TableName, V> map, String schema, String table, String currentSchema,
            boolean foldsToUpper) {
        V unqualified = null;
        for (Map.Entry<TableName, V> e : map.entrySet()) {
            if (e.getKey().matches(schema, table, currentSchema, foldsToUpper)) {
                if (e.getKey().schema() != null) {
                    return Optional.of(e.getValue());
                }
                unqualified = unqualified != null ? unqualified : e.getValue();
            }
        }
        return Optional.ofNullable(unqualified);
    }

    @Override
    public String toString() {
        return "ReplConfig[url=" + ReplUrl.mask(delegateUrl) + ", properties=" + delegateProperties.stringPropertyNames()
                .stream().sorted().toList() + ", repl=" + replProperties() + "]";
    }
}
