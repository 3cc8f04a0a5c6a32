package io.jdbcrepl.conflict;

import io.jdbcrepl.api.Conflict;
import io.jdbcrepl.config.HandlerDefinition;
import io.jdbcrepl.lcr.CommandType;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.RowLcr;
import io.jdbcrepl.lcr.TypedValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One node's table in memory, for simulating two or three nodes without a database: local
 * changes make LCRs the way capture does with {@code repl.supplemental=KEYS} (old values: key,
 * assigned columns, each handler list with an assigned member), received LCRs go through
 * detection, resolution and the {@link Resolution} as the apply side would execute it.
 */
final class MemoryNode {

    final String name;
    final TableSettings table;
    final List<HandlerDefinition> handlers;
    final Map<TypedValue, RowImage> rows = new LinkedHashMap<>();
    /** Unresolved LCRs (their transactions, one LCR each here). */
    final List<Resolution> errorQueue = new ArrayList<>();
    /** RECORD entries. */
    final List<Resolution.RecordEntry> recorded = new ArrayList<>();
    final List<Resolution> conflicts = new ArrayList<>();
    private long position;

    MemoryNode(String name, TableSettings table, List<HandlerDefinition> handlers) {
        this.name = name;
        this.table = table;
        this.handlers = List.copyOf(handlers);
    }

    private String keyColumn() {
        return table.keyColumns().get(0);
    }

    void load(RowImage row) {
        rows.put(row.get(keyColumn()), new RowImage(row.asMap()));
    }

    RowImage row(Object key) {
        return rows.get(Fixtures.v(key));
    }

    TypedValue value(Object key, String column) {
        return row(key).get(column);
    }

    /** A local UPDATE of one row: the change and its LCR. */
    RowLcr update(Object key, RowImage assigned) {
        RowImage current = row(key);
        RowImage old = new RowImage();
        for (String c : current.asMap().keySet()) {
            boolean logged = table.isKey(c) || assigned.has(c) || handlers.stream().anyMatch(h -> !h.columns().star()
                    && Columns.contains(h.columns().columns(), c)
                    && h.columns().columns().stream().anyMatch(assigned::has));
            if (logged) old.put(c, current.get(c));
        }
        RowImage after = new RowImage(current.asMap());
        assigned.asMap().forEach(after::put);
        load(after);
        return lcr(CommandType.UPDATE, old, assigned);
    }

    RowLcr insert(RowImage row) {
        load(row);
        return lcr(CommandType.INSERT, new RowImage(), row);
    }

    RowLcr delete(Object key) {
        RowImage old = rows.remove(Fixtures.v(key));
        return lcr(CommandType.DELETE, old, new RowImage());
    }

    private RowLcr lcr(CommandType type, RowImage old, RowImage nw) {
        return new RowLcr(name, type, table.schema(), table.table(), name + "-tx" + (++position), position,
                Instant.EPOCH, null, old, nw, List.copyOf(nw.asMap().keySet()), Map.of());
    }

    /** Applies a peer's LCR as the apply side would; returns the resolution when it conflicted. */
    Optional<Resolution> receive(RowLcr lcr) {
        TypedValue key = lcr.commandType() == CommandType.INSERT ? lcr.value(keyColumn())
                : lcr.oldValues().get(keyColumn());
        RowImage current = rows.get(key);
        Optional<Conflict> conflict = ConflictDetector.detect(lcr, current, table);
        if (conflict.isEmpty()) {
            applyClean(lcr, key);
            return Optional.empty();
        }
        Resolution r = new ConflictResolver(table, handlers).resolve(lcr, conflict.get());
        conflicts.add(r);
        recorded.addAll(r.records());
        switch (r.action()) {
            case UPDATE -> {
                RowImage target = rows.remove(r.key().get(keyColumn()));
                RowImage after = new RowImage(target.asMap());
                r.values().asMap().forEach(after::put);
                load(after);
            }
            case INSERT -> load(r.values());
            case DELETE -> rows.remove(r.key().get(keyColumn()));
            case DISCARD -> { }
            case UNRESOLVED -> errorQueue.add(r);
        }
        return Optional.of(r);
    }

    private void applyClean(RowLcr lcr, TypedValue key) {
        switch (lcr.commandType()) {
            case INSERT -> load(lcr.newValues());
            case DELETE -> rows.remove(key);
            case UPDATE -> {
                RowImage after = new RowImage(rows.remove(key).asMap());
                lcr.newValues().asMap().forEach(after::put);
                load(after);
            }
        }
    }
}
