package io.jdbcrepl.config;

import io.jdbcrepl.intercept.SqlState;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * SPEC 8.7, {@code repl.log.key}: the HMAC-SHA-256 every LCR in {@code repl_log} carries, and its
 * one canonical message. The message is the LCR's stored columns, each as UTF-8 text with a 4-byte
 * big-endian length before it ({@code FF FF FF FF} for NULL), after a fixed prefix: no two different
 * LCRs give the same bytes, and NULL differs from the empty string. The images are the JSON text as
 * stored, so the verifier recomputes the message from what it reads, without decoding anything.
 *
 * <p>Fields, in order: position, transaction id (as text), source node, command type, schema, table,
 * column types, change vector, old values, new values. Not covered: {@code user_name},
 * {@code created_at} and {@code tag}, which the apply side does not act on.
 */
public final class LogSignature {

    /** Names the format, so that a later one can never be read as this one. */
    static final byte[] PREFIX = io.jdbcrepl.capture.SignedLcr.MESSAGE_PREFIX.getBytes(StandardCharsets.UTF_8);
    /** The shortest key accepted, in bytes: a shorter shared secret is too easy to guess. */
    public static final int MIN_KEY_BYTES = 16;
    private static final int BLOCK = 64;

    private final byte[] key;
    /** Initialised with the key once; each signature works on a clone (a Mac is not thread-safe, and a lookup costs). */
    private final Mac prototype;

    private LogSignature(byte[] key) {
        this.key = key;
        try {
            prototype = Mac.getInstance("HmacSHA256");
            prototype.init(new SecretKeySpec(key, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }

    /**
     * The signer of {@code repl.log.key}, or null when it is not set.
     *
     * @throws SQLException 22023 naming the property (never the value) when it is shorter than {@link #MIN_KEY_BYTES}
     */
    public static LogSignature of(String key) throws SQLException {
        if (key == null) return null;
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < MIN_KEY_BYTES) {
            throw SqlState.INVALID_PARAMETER_VALUE.exception("repl.log.key is too short: it must be at least " + MIN_KEY_BYTES
                    + " bytes (UTF-8) of a shared secret");
        }
        return new LogSignature(bytes);
    }

    /** The canonical message of one LCR, from its stored columns. */
    public static byte[] message(long position, String txId, String sourceNode, String commandType, String schema,
            String table, String columnTypes, String changeVector, String oldValues, String newValues) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 + length(oldValues) + length(newValues));
        out.writeBytes(PREFIX);
        for (String field : new String[] {Long.toString(position), txId, sourceNode, commandType, schema, table,
                columnTypes, changeVector, oldValues, newValues}) {
            if (field == null) {
                out.writeBytes(NULL);
                continue;
            }
            byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
            int n = bytes.length;
            out.write(n >>> 24);
            out.write(n >>> 16);
            out.write(n >>> 8);
            out.write(n);
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    private static final byte[] NULL = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};

    private static int length(String s) {
        return s == null ? 0 : s.length();
    }

    /** HMAC-SHA-256 of the canonical message. */
    public byte[] sign(long position, String txId, String sourceNode, String commandType, String schema, String table,
            String columnTypes, String changeVector, String oldValues, String newValues) {
        return hmac(message(position, txId, sourceNode, commandType, schema, table, columnTypes, changeVector,
                oldValues, newValues));
    }

    /** Whether {@code signature} is this key's HMAC of the message, compared in constant time. */
    public boolean verify(byte[] signature, long position, String txId, String sourceNode, String commandType,
            String schema, String table, String columnTypes, String changeVector, String oldValues, String newValues) {
        return signature != null && MessageDigest.isEqual(signature, sign(position, txId, sourceNode, commandType,
                schema, table, columnTypes, changeVector, oldValues, newValues));
    }

    byte[] hmac(byte[] message) {
        try {
            return ((Mac) prototype.clone()).doFinal(message);
        } catch (CloneNotSupportedException e) {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(key, "HmacSHA256"));
                return mac.doFinal(message);
            } catch (GeneralSecurityException again) {
                throw new IllegalStateException("HmacSHA256 is part of every Java runtime", again);
            }
        }
    }

    /**
     * HMAC's inner pad, the 64-byte key (hashed first when longer) XOR 0x36: with {@link #outerPad()},
     * HMAC(K, m) = SHA-256(outerPad || SHA-256(innerPad || m)), which SQL computes with plain SHA-256.
     */
    public byte[] innerPad() {
        return pad((byte) 0x36);
    }

    /** HMAC's outer pad: the 64-byte key XOR 0x5C. */
    public byte[] outerPad() {
        return pad((byte) 0x5C);
    }

    private byte[] pad(byte with) {
        byte[] k = key;
        if (k.length > BLOCK) {
            try {
                k = MessageDigest.getInstance("SHA-256").digest(k);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
            }
        }
        byte[] out = Arrays.copyOf(k, BLOCK);
        for (int i = 0; i < BLOCK; i++) out[i] ^= with;
        return out;
    }

    /** Never the key. */
    @Override
    public String toString() {
        return "LogSignature[****]";
    }
}
