package io.jdbcrepl.config;

import io.jdbcrepl.api.ConflictType;
import io.jdbcrepl.api.DmlOperation;

import java.util.EnumSet;
import java.util.Set;

/** A prebuilt conflict handler's method (SPEC 5.3). */
public enum HandlerType {
    RECORD,
    IGNORE,
    DISCARD,
    OVERWRITE,
    MAXIMUM,
    MINIMUM,
    DELTA;

    /** MAXIMUM and MINIMUM compare a resolution column; the others have none. */
    public boolean needsResolution() {
        return this == MAXIMUM || this == MINIMUM;
    }

    /**
     * The types valid for an (operation, conflict) pair, per SPEC 5.3; empty for pairs that are
     * not valid at all (INSERT/ROW_MISSING, and any operation other than INSERT, UPDATE, DELETE).
     */
    public static Set<HandlerType> allowedFor(DmlOperation operation, ConflictType conflict) {
        switch (operation) {
            case INSERT:
                return conflict == ConflictType.ROW_EXISTS
                        ? EnumSet.of(RECORD, IGNORE, DISCARD, OVERWRITE, MAXIMUM, MINIMUM)
                        : EnumSet.noneOf(HandlerType.class);
            case UPDATE:
                return conflict == ConflictType.ROW_EXISTS
                        ? EnumSet.allOf(HandlerType.class)
                        : EnumSet.of(RECORD, IGNORE, DISCARD, OVERWRITE);
            case DELETE:
                return conflict == ConflictType.ROW_EXISTS
                        ? EnumSet.of(RECORD, IGNORE, DISCARD, OVERWRITE)
                        : EnumSet.of(RECORD, IGNORE, DISCARD);
            default:
                return EnumSet.noneOf(HandlerType.class);
        }
    }
}
