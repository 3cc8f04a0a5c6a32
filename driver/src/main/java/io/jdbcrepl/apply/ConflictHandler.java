package io.jdbcrepl.apply;

import io.jdbcrepl.lcr.RowLcr;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The seam where conflict resolution plugs in (SPEC 5.2 to 5.4): called for each conflict with the
 * LCR and the local connection, inside the source transaction's savepoint. Returning false sends the
 * whole source transaction to the error queue. This build has no handlers: {@link #NONE}.
 */
@FunctionalInterface
public interface ConflictHandler {

    ConflictHandler NONE = (conflict, lcr, local) -> false;

    /** Resolves the conflict (it may change rows on {@code local}); false when it cannot. */
    boolean resolve(Conflict conflict, RowLcr lcr, Connection local) throws SQLException;
}
