/**
 * What an operator watches (SPEC 8.5): counters the capture and apply paths add to as they work
 * ({@link NodeMetrics}, {@link PeerMetrics}), and the state {@code status} reads from the database
 * ({@link StatusSnapshot}), shown through JMX always ({@link JmxMetrics}) and through Micrometer when it
 * is on the class path ({@link ReplMeterBinder}), all named {@code jdbc.repl.*} and tagged by node and peer.
 */
package io.jdbcrepl.metrics;
