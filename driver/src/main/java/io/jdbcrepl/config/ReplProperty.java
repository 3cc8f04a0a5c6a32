package io.jdbcrepl.config;

import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every {@code repl.*} key (SPEC 2), declared in key order. Templated keys hold placeholders:
 * {@code <table>} is {@code schema.table} or {@code table}; {@code <name>}, {@code <peer>} and
 * {@code <group>} have no dots (and a group is never called {@code always}, which would make
 * {@code repl.loggroup.t.g.always} ambiguous).
 *
 * <p>This is the one catalogue: {@link ReplConfig} parses by it, {@code Driver.getPropertyInfo}
 * reports it, and the README's table is {@link PropertyTable#markdown()} of it.
 */
public enum ReplProperty {

    APPLY("repl.apply", Type.BOOLEAN, null, "true if `repl.peers` is set",
            "Run the apply side (inbound server) in this JVM."),
    APPLY_BATCH("repl.apply.batch", Type.INT, "500", null,
            "Apply tuning: at most this many LCRs read and applied per batch (1 to 100000)."),
    APPLY_POLL("repl.apply.poll", Type.DURATION, "200ms", null,
            "Apply tuning: how long an idle apply side waits before it polls a peer again."),
    APPLY_TABLES("repl.apply.tables", Type.PATTERNS, null, "this node's `repl.tables` minus `repl.exclude`",
            "Tables this node accepts changes for from its peers, as patterns like `repl.tables`; an LCR for any "
                    + "other table goes to the error queue (SQLState 42501)."),
    CONFIG("repl.config", Type.LOCATION, null, null,
            "A properties file (UTF-8) with more `repl.*` keys: `file:/path` or `classpath:name`. "
                    + "URL and connect properties win over it; it may not name another file."),
    DDL("repl.ddl", Type.ENUM, "replicate", null,
            "DDL and TRUNCATE on replicated tables through this node: `replicate` logs them as DDL LCRs that peers run at "
                    + "the same point of this node's order (and this node runs its peers' DDL LCRs); `local` runs them here only.",
            "replicate", "local"),
    DMLHANDLER_CLASS("repl.dmlhandler.<name>.class", Type.CLASS_NAME, null, null,
            "Custom handler: the class (public no-arg constructor) implementing the driver's handler interface. Required."),
    DMLHANDLER_ERROR_HANDLER("repl.dmlhandler.<name>.error_handler", Type.BOOLEAN, "false", null,
            "Custom handler: `true` calls it only for errors the prebuilt handlers did not resolve; "
                    + "`false` calls it instead of the default apply."),
    DMLHANDLER_OPERATION("repl.dmlhandler.<name>.operation", Type.ENUM, "DEFAULT", null,
            "Custom handler: the operation it is for; `DEFAULT` is every operation.",
            "INSERT", "UPDATE", "DELETE", "LOB_UPDATE", "DEFAULT"),
    DMLHANDLER_TABLE("repl.dmlhandler.<name>.table", Type.STRING, null, null,
            "Custom handler: the table (`schema.table` or `table`) it is for. Required."),
    DRIVER("repl.driver", Type.CLASS_NAME, null, "auto-detected",
            "The delegate driver's class, when auto-detection from the URL is not wanted."),
    EXCLUDE("repl.exclude", Type.PATTERNS, null, null,
            "Tables never captured, as patterns like `repl.tables`."),
    FK_RETRY("repl.fk.retry", Type.DURATION, "30s", null,
            "How long a transaction that fails on a foreign key is retried before it goes to the error queue "
                    + "(`0s`: not retried)."),
    HANDLER_COLUMNS("repl.handler.<name>.columns", Type.COLUMNS, "*", null,
            "Prebuilt handler: its column list, or `*` for all columns in no other list of the same table, "
                    + "operation and conflict."),
    HANDLER_CONFLICT("repl.handler.<name>.conflict", Type.ENUM, "ROW_EXISTS", null,
            "Prebuilt handler: the conflict it resolves.",
            "ROW_EXISTS", "ROW_MISSING"),
    HANDLER_OPERATION("repl.handler.<name>.operation", Type.ENUM, "UPDATE", null,
            "Prebuilt handler: the operation it is for.",
            "INSERT", "UPDATE", "DELETE"),
    HANDLER_RESOLUTION("repl.handler.<name>.resolution", Type.STRING, null, null,
            "Prebuilt handler: the resolution column, one of its columns; required for `MAXIMUM` and `MINIMUM`, "
                    + "not allowed otherwise."),
    HANDLER_TABLE("repl.handler.<name>.table", Type.STRING, null, null,
            "Prebuilt handler: the table (`schema.table` or `table`) it is for. Required."),
    HANDLER_TYPE("repl.handler.<name>.type", Type.ENUM, null, null,
            "Prebuilt handler: the resolution method. Required.",
            "RECORD", "IGNORE", "DISCARD", "OVERWRITE", "MAXIMUM", "MINIMUM", "DELTA"),
    HEALTH_LAG("repl.health.lag", Type.DURATION, "30s", null,
            "Lag above which health checks (the Spring Boot starter's `repl` indicator) report DOWN."),
    INSTALL("repl.install", Type.ENUM, "auto", null,
            "`auto` creates the driver's schema and tables when missing and upgrades those of an older driver; `none`"
                    + " fails clearly when they are missing or older.",
            "auto", "none"),
    JOIN("repl.join", Type.STRING, null, null,
            "A peer (in `repl.peers`) this new node joins the mesh from: before applying anything, the node copies every"
                    + " replicated table from it, as of one snapshot, and applies from each peer from there (once; the CLI's"
                    + " `join` does the same)."),
    KEY("repl.key.<table>", Type.COLUMNS, null, "primary key",
            "Substitute key columns of the table (Oracle `SET_KEY_COLUMNS`)."),
    KEYS_OFFSET("repl.keys.offset", Type.INT, null, null,
            "This node's place in the key scheme, 1 to `repl.keys.step`, unique per node: generated keys (AUTO_INCREMENT, "
                    + "identity, serial, sequences) it hands out are ≡ offset (mod step). Set with `repl.keys.step`."),
    KEYS_STEP("repl.keys.step", Type.INT, null, null,
            "Generated keys that never collide (see docs/keys.md): the step of every node's generated keys, the same on "
                    + "every node and at least the number of nodes the mesh will ever have. Set with `repl.keys.offset`."),
    LOG_KEY("repl.log.key", Type.STRING, null, null,
            "Shared secret (at least 16 bytes) of every node: LCRs are signed (HMAC-SHA-256) when captured, and "
                    + "unsigned or wrongly signed LCRs go to the error queue (SQLState 42501). Never printed."),
    LOGGROUP("repl.loggroup.<table>.<group>", Type.COLUMNS, null, null,
            "A supplemental log group: old values of these columns are logged for an UPDATE that assigns one of them."),
    LOGGROUP_ALWAYS("repl.loggroup.<table>.<group>.always", Type.BOOLEAN, "false", null,
            "`true`: the log group's old values are logged for every UPDATE (unconditional group)."),
    NOCOMPARE("repl.nocompare.<table>", Type.COLUMNS, null, null,
            "Non-key columns whose old values are not compared on apply, or `*` for all non-key columns "
                    + "(Oracle `COMPARE_OLD_VALUES` false)."),
    NODE("repl.node", Type.STRING, null, null,
            "This database's global name (the LCR's source database name); without it the URL is a pure pass-through."),
    PEER_PASSWORD("repl.peer.<peer>.password", Type.STRING, null, null,
            "Password for the peer's database. Never printed."),
    PEER_SCHEMA("repl.peer.<peer>.schema", Type.STRING, null, "by the rule of `repl.schema`",
            "Schema (MariaDB/MySQL: database) of the peer's driver tables, where its `repl_log` is, when not "
                    + "where `repl.schema`'s rule puts it."),
    PEER_URL("repl.peer.<peer>.url", Type.STRING, null, null,
            "Plain JDBC URL (not `jdbc:repl:`) of the peer's database. Required for each peer."),
    PEER_USER("repl.peer.<peer>.user", Type.STRING, null, null,
            "User for the peer's database."),
    PEER_TIMEOUT("repl.peer.timeout", Type.DURATION, "30s", null,
            "Connect and socket timeout of every connection to a peer: a peer that stops answering (a black-holed "
                    + "network) fails the statement after this long instead of hanging (also a statement timeout)."),
    PEERS("repl.peers", Type.NAMES, null, null,
            "Peer nodes this node applies changes from, comma-separated (needs `repl.node`)."),
    RETENTION("repl.retention", Type.DURATION, "7d", null,
            "How long LCRs wait for a silent subscriber before it is dropped (loudly), and how long the conflict "
                    + "history `repl_conflict` keeps its rows."),
    SCHEMA("repl.schema", Type.STRING, null, "`repl` (PostgreSQL, H2) / `<database>_repl` (MariaDB/MySQL)",
            "Schema of the driver's tables (`repl_log`, `repl_progress`, ...): a schema of their own, created when "
                    + "missing, so that schema tools (Flyway, Liquibase, Hibernate) see only the application's tables. "
                    + "Peers look for a peer's log with the same rule unless `repl.peer.<peer>.schema` says otherwise."),
    SUPPLEMENTAL("repl.supplemental", Type.ENUM, "KEYS", null,
            "Old values logged for UPDATE: `KEYS` the key, assigned columns and log groups; `ALL` every column.",
            "KEYS", "ALL"),
    TABLES("repl.tables", Type.PATTERNS, "*.*", null,
            "Tables captured, comma-separated patterns: `*.*` every table, `hr.*`, `hr.emp*`, `orders` "
                    + "(current schema). The driver's own tables never."),
    TIMESTAMP("repl.timestamp.<table>", Type.STRING, null, null,
            "Resolution timestamp column: the driver sets it on every captured INSERT and UPDATE, always increasing per row."),
    UNSUPPORTED("repl.unsupported", Type.ENUM, "error", null,
            "What a DML statement on a replicated table that cannot be captured, and a CALL or DO, gets: `error` (SQLState 0AR01) "
                    + "or `passthrough` (runs uncaptured, logs a warning).",
            "error", "passthrough");

    /** The kind of value; decides how it is parsed and shown. */
    public enum Type { STRING, BOOLEAN, INT, DURATION, ENUM, PATTERNS, NAMES, COLUMNS, CLASS_NAME, LOCATION }

    /** All keys are from the first release; a key added later says its own version. */
    private static final String FIRST_RELEASE = "0.1";

    private static final Map<String, ReplProperty> PLAIN = new HashMap<>();

    static {
        for (ReplProperty p : values()) {
            if (!p.isTemplate()) {
                PLAIN.put(p.key, p);
            }
        }
    }

    private final String key;
    private final Type type;
    private final String defaultValue;
    private final String defaultText;
    private final String description;
    private final List<String> choices;
    private final Pattern template;

    ReplProperty(String key, Type type, String defaultValue, String defaultText, String description,
            String... choices) {
        this.key = key;
        this.type = type;
        this.defaultValue = defaultValue;
        this.defaultText = defaultText != null ? defaultText : defaultValue;
        this.description = description;
        this.choices = type == Type.BOOLEAN ? List.of("true", "false") : List.of(choices);
        this.template = key.contains("<") ? Pattern.compile(templateRegex(key)) : null;
    }

    public String key() {
        return key;
    }

    public Type type() {
        return type;
    }

    /** The default as a parseable value, or null when there is none or it is computed. */
    public String defaultValue() {
        return defaultValue;
    }

    /** The default as the docs say it: the value, or how it is computed ("current schema"); may be null. */
    public String defaultText() {
        return defaultText;
    }

    public String description() {
        return description;
    }

    public String since() {
        return FIRST_RELEASE;
    }

    /** The accepted values (case-insensitive) of a BOOLEAN or ENUM key; empty otherwise. */
    public List<String> choices() {
        return choices;
    }

    /** Whether the key holds placeholders such as {@code <table>}. */
    public boolean isTemplate() {
        return template != null;
    }

    /** Whether its values must never be shown (messages, toString, logs, getPropertyInfo). */
    public boolean isSecret() {
        return key.endsWith(".password") || key.equals("repl.log.key");
    }

    /** The property a concrete key belongs to: {@code repl.peer.dbs2.url} is {@link #PEER_URL}. */
    public static Optional<ReplProperty> forKey(String concreteKey) {
        return match(concreteKey).map(KeyMatch::property);
    }

    /** A concrete key resolved to its property and the placeholder values, in key order. */
    record KeyMatch(ReplProperty property, String key, List<String> args) {
        String arg(int i) {
            return args.get(i);
        }
    }

    static Optional<KeyMatch> match(String concreteKey) {
        if (concreteKey == null) {
            return Optional.empty();
        }
        ReplProperty plain = PLAIN.get(concreteKey);
        if (plain != null) {
            return Optional.of(new KeyMatch(plain, concreteKey, List.of()));
        }
        for (ReplProperty p : values()) {
            if (p.template != null) {
                Matcher m = p.template.matcher(concreteKey);
                if (m.matches()) {
                    List<String> args = new ArrayList<>();
                    for (int i = 1; i <= m.groupCount(); i++) {
                        args.add(m.group(i));
                    }
                    return Optional.of(new KeyMatch(p, concreteKey, List.copyOf(args)));
                }
            }
        }
        return Optional.empty();
    }

    /** {@code <table>} is one or two dot-free segments; every other placeholder is one. */
    private static String templateRegex(String key) {
        String segment = "[^.\\s<>]+"; // never the template text itself
        StringBuilder regex = new StringBuilder();
        Matcher m = Pattern.compile("<(\\w+)>").matcher(key);
        int last = 0;
        while (m.find()) {
            regex.append(Pattern.quote(key.substring(last, m.start())));
            switch (m.group(1)) {
                case "table":
                    regex.append("(").append(segment).append("(?:\\.").append(segment).append(")?)");
                    break;
                case "group":
                    regex.append("((?!always(?:\\.|$))").append(segment).append(")");
                    break;
                default:
                    regex.append("(").append(segment).append(")");
            }
            last = m.end();
        }
        return regex.append(Pattern.quote(key.substring(last))).toString();
    }

    /**
     * The catalogue for {@code Driver.getPropertyInfo}: one entry per key given in {@code info}
     * (concrete keys of templates included), and one per key not given, with its default. Secrets
     * are never echoed; nothing is required (a URL without repl.node is a pass-through).
     */
    public static DriverPropertyInfo[] driverPropertyInfo(Properties info) {
        Map<String, String> given = new HashMap<>();
        if (info != null) {
            for (String name : info.stringPropertyNames()) {
                if (name.startsWith("repl.")) {
                    given.put(name, info.getProperty(name));
                }
            }
        }
        return driverPropertyInfo(given);
    }

    /**
     * For {@code Driver.getPropertyInfo(url, info)}: the URL's repl.* parameters win over
     * {@code info}'s. Lenient on purpose (tools call it while the user is still typing): a URL that
     * does not parse contributes nothing. The repl.config file is not read.
     */
    public static DriverPropertyInfo[] driverPropertyInfo(String url, Properties info) {
        Properties merged = new Properties();
        if (info != null) {
            for (String name : info.stringPropertyNames()) {
                merged.setProperty(name, info.getProperty(name));
            }
        }
        if (ReplUrl.accepts(url)) {
            try {
                ReplUrl.parse(url).replProperties().forEach(merged::setProperty);
            } catch (SQLException e) {
                // a half-typed URL: show the catalogue with what info gives
            }
        }
        return driverPropertyInfo(merged);
    }

    /** As {@link #driverPropertyInfo(Properties)}, with the values of a loaded configuration. */
    public static DriverPropertyInfo[] driverPropertyInfo(ReplConfig config) {
        return driverPropertyInfo(config.rawReplProperties());
    }

    private static DriverPropertyInfo[] driverPropertyInfo(Map<String, String> given) {
        List<DriverPropertyInfo> out = new ArrayList<>();
        for (ReplProperty p : values()) {
            boolean any = false;
            for (String k : new TreeSet<>(given.keySet())) {
                if (p.isTemplate() && forKey(k).orElse(null) == p) {
                    out.add(p.info(k, given.get(k)));
                    any = true;
                }
            }
            if (!p.isTemplate()) {
                out.add(p.info(p.key, given.containsKey(p.key) ? given.get(p.key) : p.defaultValue));
            } else if (!any) {
                out.add(p.info(p.key, p.defaultValue));
            }
        }
        return out.toArray(new DriverPropertyInfo[0]);
    }

    private DriverPropertyInfo info(String name, String value) {
        DriverPropertyInfo i = new DriverPropertyInfo(name, isSecret() ? null : value);
        i.description = description;
        i.required = false;
        i.choices = choices.isEmpty() ? null : choices.toArray(new String[0]);
        return i;
    }
}
