package io.jdbcrepl.metrics;

/** JMX {@code jdbc.repl:type=Node,node=<node>}: what capture did on this node in this JVM. */
public interface NodeMXBean {

    /** Executions of captured statements (each entry of a batch counts). */
    long getCapturedStatements();

    /** Rows they changed, each captured as an LCR. */
    long getCapturedLcrs();

    /** Time spent in captured statements, the statement itself included. */
    long getCaptureTimeNanos();
}
