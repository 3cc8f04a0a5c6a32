/**
 * Conflict detection and resolution (SPEC 5), without a database: the apply side reads the row,
 * calls these classes and executes what they decide.
 *
 * <p>Per table, at connect: {@link io.jdbcrepl.conflict.ConflictResolver#forTable} (checks the
 * rules that need the table's columns) and {@link io.jdbcrepl.conflict.CustomHandlers#load}.
 * Per LCR, in SPEC 5.2's order:
 *
 * <ol>
 *   <li>a DML handler ({@code CustomHandlers.dmlHandler}) replaces the default apply: call it
 *       with a {@link io.jdbcrepl.conflict.HandlerContext} whose executor runs the steps below;
 *   <li>read the row by the LCR's key, {@link io.jdbcrepl.conflict.ConflictDetector#detect} (and
 *       {@code uniqueness}/{@code foreignKey} from a failed statement's SQLState);
 *   <li>on a conflict, {@link io.jdbcrepl.conflict.ConflictResolver#resolve} gives a
 *       {@link io.jdbcrepl.conflict.Resolution}: execute its action, write its
 *       {@code records} to the error queue and its {@code history} to {@code repl_conflict};
 *   <li>unresolved: the error handler ({@code CustomHandlers.errorHandler}) with the conflict,
 *       else roll back the source transaction into the error queue with the resolution's
 *       {@code reason}. Inside {@code DmlContext.execute}, an unresolved conflict is thrown as
 *       a {@link io.jdbcrepl.api.ConflictException}.
 * </ol>
 */
package io.jdbcrepl.conflict;

import io.jdbcrepl.api.Conflict;
import io.jdbcrepl.api.ConflictException;
