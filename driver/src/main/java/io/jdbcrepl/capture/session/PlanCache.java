package io.jdbcrepl.capture.session;

import io.jdbcrepl.node.Node;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A bounded cache of per-SQL capture decisions, shared by a node's connections. Read on every
 * prepare and plain execution, so reads take no lock; when it is full it starts afresh (an
 * application with more distinct statements than this pays a re-plan now and then).
 */
final class PlanCache {

    /** The current schema and the SQL text: unqualified table names depend on both. */
    record Key(String schema, String sql) {
    }

    private final int capacity;
    private final Map<Key, CaptureDecision> entries = new ConcurrentHashMap<>();

    PlanCache(int capacity) {
        this.capacity = capacity;
    }

    /** The plans of {@code node}, kept with it. */
    static PlanCache of(Node node) {
        return node.attachment(PlanCache.class, () -> new PlanCache(1024));
    }

    CaptureDecision get(String schema, String sql) {
        return entries.get(new Key(schema, sql));
    }

    void put(String schema, String sql, CaptureDecision decision) {
        if (entries.size() >= capacity) entries.clear();
        entries.put(new Key(schema, sql), decision);
    }

    void clear() {
        entries.clear();
    }

    int size() {
        return entries.size();
    }
}
