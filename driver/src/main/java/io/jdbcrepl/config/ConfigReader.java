package io.jdbcrepl.config;

import io.jdbcrepl.config.ReplProperty.KeyMatch;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the merged {@code repl.*} keys into typed values: every key known, every value valid,
 * and the rules across keys (peers, log groups, handlers) kept. Used once per {@link ReplConfig}.
 */
final class ConfigReader {

    final Map<ReplProperty, Object> plain = new EnumMap<>(ReplProperty.class);
    final Map<String, PeerConfig> peers = new LinkedHashMap<>();
    final Map<TableName, List<String>> keyColumns = new LinkedHashMap<>();
    final Map<TableName, List<LogGroup>> logGroups = new LinkedHashMap<>();
    final Map<TableName, String> timestamps = new LinkedHashMap<>();
    final Map<TableName, ColumnSet> noCompare = new LinkedHashMap<>();
    List<HandlerDefinition> handlers = List.of();
    /** repl.keys.step and repl.keys.offset, or null when neither is set. */
    KeyScheme keys;
    List<DmlHandlerDefinition> dmlHandlers = List.of();

    private final Map<String, Map<ReplProperty, Object>> peerKeys = new TreeMap<>();
    private final Map<String, Map<ReplProperty, Object>> handlerKeys = new TreeMap<>();
    private final Map<String, Map<ReplProperty, Object>> dmlHandlerKeys = new TreeMap<>();
    private final Map<TableName, Map<String, GroupKeys>> groupKeys = new LinkedHashMap<>();

    /** The two keys of one log group, met in either order. */
    private static final class GroupKeys {
        List<String> columns;
        Boolean always;
        String alwaysKey;
    }

    /**
     * @param merged the effective keys, sorted (so the first error is always the same one)
     * @param origins where each key came from, for messages ("the URL", "repl.config=...")
     */
    ConfigReader(Map<String, String> merged, Map<String, String> origins) throws SQLException {
        for (Map.Entry<String, String> e : merged.entrySet()) {
            String key = e.getKey();
            String origin = " [from " + origins.get(key) + "]";
            KeyMatch m = ReplProperty.match(key)
                    .orElseThrow(() -> ConfigErrors.unknownKey(key, e.getValue(), origin));
            try {
                accept(m, Values.parse(m.property(), key, e.getValue()));
            } catch (SQLException x) {
                throw new SQLException(x.getMessage() + origin, x.getSQLState(), x);
            }
        }
        readPeers();
        readLogGroups();
        keys = KeyScheme.read(plain);
        handlers = HandlerRules.prebuilt(handlerKeys);
        dmlHandlers = HandlerRules.custom(dmlHandlerKeys);
    }

    private void accept(KeyMatch m, Object value) throws SQLException {
        ReplProperty p = m.property();
        switch (p) {
            case PEER_URL:
            case PEER_USER:
            case PEER_PASSWORD:
            case PEER_SCHEMA:
                peerKeys.computeIfAbsent(m.arg(0), k -> new EnumMap<>(ReplProperty.class)).put(p, value);
                break;
            case HANDLER_COLUMNS:
            case HANDLER_CONFLICT:
            case HANDLER_OPERATION:
            case HANDLER_RESOLUTION:
            case HANDLER_TABLE:
            case HANDLER_TYPE:
                handlerKeys.computeIfAbsent(name(m), k -> new EnumMap<>(ReplProperty.class)).put(p, value);
                break;
            case DMLHANDLER_CLASS:
            case DMLHANDLER_ERROR_HANDLER:
            case DMLHANDLER_OPERATION:
            case DMLHANDLER_TABLE:
                dmlHandlerKeys.computeIfAbsent(name(m), k -> new EnumMap<>(ReplProperty.class)).put(p, value);
                break;
            case KEY:
                putOnce(keyColumns, table(m), ((ColumnSet) value).columns(), m.key());
                break;
            case TIMESTAMP:
                putOnce(timestamps, table(m), (String) value, m.key());
                break;
            case NOCOMPARE:
                putOnce(noCompare, table(m), (ColumnSet) value, m.key());
                break;
            case LOGGROUP: {
                GroupKeys g = groupKeys(m);
                if (g.columns != null) {
                    throw twice(m);
                }
                g.columns = ((ColumnSet) value).columns();
                break;
            }
            case LOGGROUP_ALWAYS: {
                GroupKeys g = groupKeys(m);
                if (g.always != null) {
                    throw twice(m);
                }
                g.always = (Boolean) value;
                g.alwaysKey = m.key();
                break;
            }
            default:
                plain.put(p, value);
        }
    }

    private void readPeers() throws SQLException {
        @SuppressWarnings("unchecked")
        List<String> names = (List<String>) plain.getOrDefault(ReplProperty.PEERS, List.of());
        String node = (String) plain.get(ReplProperty.NODE);
        if (!names.isEmpty() && node == null) {
            throw ConfigErrors.invalid("repl.peers=" + String.join(",", names) + " needs repl.node: "
                    + "a node applies changes from its peers only when it has a name itself");
        }
        for (String name : names) {
            if (Identifiers.same(name, node)) {
                throw ConfigErrors.invalid("repl.peers=" + String.join(",", names) + " lists the node itself (repl.node="
                        + node + "): a node does not apply its own changes");
            }
        }
        for (Map.Entry<String, Map<ReplProperty, Object>> e : peerKeys.entrySet()) {
            if (names.stream().noneMatch(n -> Identifiers.same(n, e.getKey()))) {
                String key = "repl.peer." + e.getKey() + "." + e.getValue().keySet().iterator().next().key()
                        .substring("repl.peer.<peer>.".length());
                throw ConfigErrors.invalid(key + " is for peer " + e.getKey() + ", which is not listed in repl.peers"
                        + (names.isEmpty() ? "" : "=" + String.join(",", names)));
            }
        }
        for (String name : names) {
            // repl.peers=DBS2 with repl.peer.dbs2.url: node names compare ignoring case
            Map<ReplProperty, Object> v = new EnumMap<>(ReplProperty.class);
            peerKeys.forEach((peer, keys) -> {
                if (Identifiers.same(peer, name)) {
                    v.putAll(keys);
                }
            });
            String url = (String) v.get(ReplProperty.PEER_URL);
            if (url == null) {
                throw ConfigErrors.invalid("Peer " + name + " (listed in repl.peers) needs repl.peer." + name + ".url");
            }
            peers.put(name, new PeerConfig(name, url, (String) v.get(ReplProperty.PEER_USER),
                    (String) v.get(ReplProperty.PEER_PASSWORD), (String) v.get(ReplProperty.PEER_SCHEMA)));
        }
        String join = (String) plain.get(ReplProperty.JOIN);
        if (join != null && names.stream().noneMatch(n -> Identifiers.same(n, join))) {
            throw ConfigErrors.invalid("repl.join=" + join + " is not a peer in repl.peers"
                    + (names.isEmpty() ? " (none listed)" : "=" + String.join(",", names))
                    + ": a node joins from one of its peers");
        }
    }

    private void readLogGroups() throws SQLException {
        for (Map.Entry<TableName, Map<String, GroupKeys>> t : groupKeys.entrySet()) {
            List<LogGroup> groups = new ArrayList<>();
            for (Map.Entry<String, GroupKeys> g : t.getValue().entrySet()) {
                GroupKeys k = g.getValue();
                if (k.columns == null) {
                    throw ConfigErrors.invalid(k.alwaysKey + " is set but repl.loggroup." + t.getKey() + "."
                            + g.getKey() + " (the group's columns) is not");
                }
                groups.add(new LogGroup(g.getKey(), k.columns, Boolean.TRUE.equals(k.always)));
            }
            logGroups.put(t.getKey(), Collections.unmodifiableList(groups));
        }
    }

    private static String name(KeyMatch m) throws SQLException {
        String name = m.arg(0);
        if (!Identifiers.isName(name)) {
            throw ConfigErrors.invalid("Invalid handler name '" + name + "' in key " + m.key()
                    + ": letters, digits, _, $, # and - only");
        }
        return name;
    }

    private static TableName table(KeyMatch m) throws SQLException {
        try {
            return TableName.parse(m.arg(0));
        } catch (IllegalArgumentException e) {
            throw ConfigErrors.invalid("Invalid table '" + m.arg(0) + "' in key " + m.key()
                    + ": expected schema.table or table, " + e.getMessage());
        }
    }

    private static String group(KeyMatch m) throws SQLException {
        String group = m.arg(1);
        if (!Identifiers.isIdentifier(group)) {
            throw ConfigErrors.invalid("Invalid log group name '" + group + "' in key " + m.key());
        }
        return group;
    }

    /** The group's keys; one spelling per table and group, so HR.EMP.G1 and hr.emp.g1 meet. */
    private GroupKeys groupKeys(KeyMatch m) throws SQLException {
        TableName t = table(m);
        String group = group(m);
        Map<String, GroupKeys> groups = null;
        for (Map.Entry<TableName, Map<String, GroupKeys>> e : groupKeys.entrySet()) {
            if (e.getKey().sameAs(t)) {
                groups = e.getValue();
            }
        }
        if (groups == null) {
            groups = new LinkedHashMap<>();
            groupKeys.put(t, groups);
        }
        for (Map.Entry<String, GroupKeys> e : groups.entrySet()) {
            if (Identifiers.same(e.getKey(), group)) {
                return e.getValue();
            }
        }
        GroupKeys k = new GroupKeys();
        groups.put(group, k);
        return k;
    }

    private static SQLException twice(KeyMatch m) {
        return ConfigErrors.invalid("Key " + m.key() + " names log group " + m.arg(1) + " of table " + m.arg(0)
                + ", which another key already names in another spelling: give it once");
    }

    private static <V> void putOnce(Map<TableName, V> map, TableName t, V value, String key) throws SQLException {
        for (TableName existing : map.keySet()) {
            if (existing.sameAs(t)) {
                throw ConfigErrors.invalid("Key " + key + " names table " + t + ", which another key already names as "
                        + existing + ": give it once");
            }
        }
        map.put(t, value);
    }
}
