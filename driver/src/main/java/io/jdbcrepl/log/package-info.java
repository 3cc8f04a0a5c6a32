/**
 * The change log and the driver's tables in the node's own database ({@code repl.schema}): how SQL
 * names them, their definitions per dialect, the versioned installer that creates and upgrades
 * them, the grants of least privilege on them, and the signature of the change log's rows. Reading
 * a log in commit order ({@link io.jdbcrepl.log.SourceReader}, one implementation per database
 * through {@link io.jdbcrepl.log.SourceReaders}; {@link io.jdbcrepl.log.LogRows}: its rows as
 * LCRs), the positions of its consumers ({@link io.jdbcrepl.log.Position}), a source gone back in
 * time ({@link io.jdbcrepl.log.Rewind}), the subscribers that hold it back and its purge
 * ({@link io.jdbcrepl.log.Subscribers}, {@link io.jdbcrepl.log.Purger}), and the in-JVM signal of
 * new commits ({@link io.jdbcrepl.log.CommitSignal}). Applying what is read is {@code apply}'s.
 */
package io.jdbcrepl.log;
