package io.jdbcrepl.capture;

/** The format of the message an LCR is signed over (repl.log.key, SPEC 8.7), shared by every database's capture and the verifier. */
public final class SignedLcr {

    /** Names the format, so that a later one can never be read as this one. */
    public static final String MESSAGE_PREFIX = "jdbc:repl LCR v1\n";

    private SignedLcr() {
    }
}
