package io.jdbcrepl.apply;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.config.ReplConfig;
import io.jdbcrepl.conflict.CustomHandlers;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * The custom handlers (SPEC 5.4, {@code repl.dmlhandler.*}) of each destination table, instantiated
 * once per applier on the table's first LCR from the thread's context class loader (the
 * application's); {@code Node.of} has instantiated each class once at connect already.
 */
final class CustomApply {

    private final Dialect dialect;
    private final ReplConfig config;
    private final String localSchema;
    private final Map<String, CustomHandlers> byTable = new HashMap<>();

    CustomApply(Dialect dialect, ReplConfig config, String localSchema) {
        this.dialect = dialect;
        this.config = config;
        this.localSchema = localSchema;
    }

    /** Null when the configuration has no custom handler at all (the common case costs nothing). */
    static CustomApply of(Dialect dialect, ReplConfig config, String localSchema) {
        return config.dmlHandlers().isEmpty() ? null : new CustomApply(dialect, config, localSchema);
    }

    CustomHandlers of(TableMap.LocalTable table) throws SQLException {
        CustomHandlers known = byTable.get(table.sql());
        if (known != null) return known;
        CustomHandlers loaded = CustomHandlers.load(config.dmlHandlers(table.info().schema(), table.info().name(),
                localSchema, dialect.foldsToUpper()), loader());
        byTable.put(table.sql(), loaded);
        return loaded;
    }

    static ClassLoader loader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : CustomApply.class.getClassLoader();
    }
}
