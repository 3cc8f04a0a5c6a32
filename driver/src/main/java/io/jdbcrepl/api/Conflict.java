package io.jdbcrepl.api;

import io.jdbcrepl.lcr.RowImage;
import java.util.List;
import java.util.Objects;

/**
 * A detected conflict (SPEC 5.1), as the apply side detects it and as a custom handler
 * sees it ({@link DmlContext#conflict()}).
 *
 * @param operation the LCR's operation: INSERT, UPDATE or DELETE
 * @param type ROW_EXISTS, ROW_MISSING, or FOREIGN_KEY for a foreign key conflict (no prebuilt
 *     handler takes one)
 * @param kind update, uniqueness, delete or foreign key
 * @param columns the conflicting columns, in the LCR's column order: for ROW_EXISTS those whose
 *     LCR value differs from the destination's; empty for ROW_MISSING and foreign keys
 * @param currentRow the destination's row before (every column), null when it is missing or
 *     unknown (a foreign key conflict)
 * @param onKey for a uniqueness conflict: true when the row was found by the LCR's key, false
 *     when another unique constraint is taken (then OVERWRITE, MAXIMUM and MINIMUM cannot resolve)
 * @param detail the database's message for a foreign key conflict (with its SQLState), else null
 */
public record Conflict(DmlOperation operation, ConflictType type, ConflictKind kind, List<String> columns,
        RowImage currentRow, boolean onKey, String detail) {

    public Conflict {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(kind, "kind");
        columns = List.copyOf(columns);
        if ((type == ConflictType.FOREIGN_KEY) != (kind == ConflictKind.FOREIGN_KEY)) {
            throw new IllegalArgumentException("a foreign key conflict is of type and kind FOREIGN_KEY");
        }
        if ((type == ConflictType.ROW_EXISTS) != (currentRow != null)) {
            throw new IllegalArgumentException("a ROW_EXISTS conflict has a current row, the others none");
        }
    }
}
