package io.jdbcrepl.node;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/** A bounded cache of per-SQL decisions for plain statements (least recently used out). */
public final class PlanCache {

    private final Map<String, Object> entries;

    public PlanCache(int capacity) {
        this.entries = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Object> eldest) {
                return size() > capacity;
            }
        };
    }

    public synchronized Object get(String key) {
        return entries.get(key);
    }

    public synchronized void put(String key, Object value) {
        entries.put(key, value);
    }

    public synchronized void clear() {
        entries.clear();
    }

    public synchronized int size() {
        return entries.size();
    }

    /** For callers that need no per-connection input. */
    public Object computeIfAbsent(String key, Supplier<Object> compute) {
        Object v = get(key);
        if (v == null) {
            v = compute.get();
            put(key, v);
        }
        return v;
    }
}
