package io.jdbcrepl.spring;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code repl.*} connection properties that the {@code jdbc-repl.*} properties make: every
 * key as written, so that the driver's catalogue (SPEC 2), not this starter, decides what is
 * valid. A list written as YAML items or {@code [0]}, {@code [1]} (which the binder names
 * {@code key.0}, {@code key.1}) becomes the comma-separated value the driver reads.
 */
final class DriverKeys {

    /** The starter's own setting ({@link JdbcReplProperties.Health#getCache()}): the driver does not know it. */
    private static final String STARTER_ONLY = "health.cache";
    private static final Pattern INDEXED = Pattern.compile("(.+)\\.(\\d+)");

    private DriverKeys() {
    }

    static Properties of(Environment environment) {
        Map<String, String> written = Binder.get(environment)
                .bind(JdbcReplProperties.PREFIX, Bindable.mapOf(String.class, String.class))
                .orElse(Map.of());
        Map<String, TreeMap<Integer, String>> lists = new TreeMap<>();
        Properties keys = new Properties();
        written.forEach((key, value) -> {
            if (key.startsWith(STARTER_ONLY)) return;
            Matcher item = INDEXED.matcher(key);
            if (item.matches()) {
                lists.computeIfAbsent(item.group(1), k -> new TreeMap<>()).put(Integer.parseInt(item.group(2)), value);
            } else {
                keys.setProperty("repl." + key, value);
            }
        });
        lists.forEach((key, items) -> keys.setProperty("repl." + key, String.join(",", items.values())));
        return keys;
    }
}
