package io.jdbcrepl.api;

import java.sql.SQLException;

/**
 * A custom handler (SPEC 5.4, Oracle's {@code SET_DML_HANDLER} user procedure): a class with a
 * public no-arg constructor, named in {@code repl.dmlhandler.<name>.class} with
 * {@code .table}, {@code .operation} (INSERT, UPDATE, DELETE, LOB_UPDATE or DEFAULT for all) and
 * {@code .error_handler}.
 *
 * <ul>
 *   <li>{@code error_handler=false}: called for every LCR of that table and operation instead of
 *       the default apply. {@link DmlContext#conflict()} is null: nothing has been tried yet.
 *   <li>{@code error_handler=true}: called only when applying the LCR raised an error that the
 *       prebuilt handlers did not resolve: an unresolved conflict ({@link DmlContext#conflict()}
 *       says what it was) or any other error ({@link DmlContext#error()}, conflict null).
 * </ul>
 *
 * In {@link #handle} it may change the LCR's values, {@link DmlContext#execute} it (with or
 * without the prebuilt handlers), run other statements on {@link DmlContext#connection()},
 * {@link DmlContext#discard()} it, or throw: an exception sends the whole source transaction to
 * the error queue with the exception's message. Returning without executing or discarding also
 * discards the LCR. One instance serves every call for its table and operation, one call at a time.
 */
@FunctionalInterface
public interface DmlHandler {

    /** Handles one LCR; see the interface comment for what it may do. */
    void handle(DmlContext context) throws SQLException;
}
