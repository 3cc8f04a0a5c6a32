package io.jdbcrepl.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.SQLException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class LogSignatureTest {

    private static final String KEY = "0123456789abcdef-shared";

    private static byte[] message(String schema, String table, String oldValues, String newValues) {
        return LogSignature.message(7, "42", "n1", "UPDATE", schema, table, "{\"id\":\"INTEGER\"}", "[\"id\"]",
                oldValues, newValues);
    }

    @Test
    void fieldsAreLengthPrefixedSoThatNoTwoLcrsShareAMessage() {
        // the same concatenated text, split differently between fields
        assertThat(message("hr", "emp", null, null)).isNotEqualTo(message("hre", "mp", null, null));
        assertThat(message("hr", "emp", "{}", "")).isNotEqualTo(message("hr", "emp", "", "{}"));
        // NULL is not the empty string
        assertThat(message(null, "emp", null, null)).isNotEqualTo(message("", "emp", null, null));
        assertThat(message("hr", "emp", null, "{}")).isNotEqualTo(message("hr", "emp", "", "{}"));
        // the position is covered
        assertThat(LogSignature.message(7, "42", "n1", "INSERT", null, "t", "{}", null, null, "{}"))
                .isNotEqualTo(LogSignature.message(8, "42", "n1", "INSERT", null, "t", "{}", null, null, "{}"));
    }

    @Test
    void messageLayoutIsTheDocumentedOne() {
        byte[] m = LogSignature.message(1, "2", "n", "INSERT", null, "t", "{}", null, null, "é");
        String hex = HexFormat.of().formatHex(m);
        String prefix = HexFormat.of().formatHex("jdbc:repl LCR v1\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(hex).isEqualTo(prefix + "0000000131" + "0000000132" + "000000016e" + "00000006494e53455254"
                + "ffffffff" + "0000000174" + "000000027b7d" + "ffffffff" + "ffffffff" + "00000002c3a9");
    }

    @Test
    void signatureIsHmacSha256AndEqualsTheTwoPadForm() throws Exception {
        LogSignature s = LogSignature.of(KEY);
        String big = "ü🎉".repeat(20_000); // > 64 KB of UTF-8
        byte[] signed = s.sign(5, "99", "n1", "INSERT", "hr", "emp", "{}", null, null, big);
        byte[] message = LogSignature.message(5, "99", "n1", "INSERT", "hr", "emp", "{}", null, null, big);
        // HMAC(K, m) = H(K ^ opad || H(K ^ ipad || m)): what the PostgreSQL capture computes with sha256()
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        sha.update(s.innerPad());
        byte[] inner = sha.digest(message);
        sha.update(s.outerPad());
        assertThat(sha.digest(inner)).isEqualTo(signed);
        assertThat(signed).hasSize(32);
        assertThat(s.verify(signed, 5, "99", "n1", "INSERT", "hr", "emp", "{}", null, null, big)).isTrue();
        assertThat(s.verify(signed, 6, "99", "n1", "INSERT", "hr", "emp", "{}", null, null, big)).isFalse();
        assertThat(s.verify(null, 5, "99", "n1", "INSERT", "hr", "emp", "{}", null, null, big)).isFalse();
        assertThat(LogSignature.of(KEY + "x").verify(signed, 5, "99", "n1", "INSERT", "hr", "emp", "{}", null, null, big))
                .isFalse();
    }

    @Test
    void knownAnswer() throws Exception {
        // RFC 4231 test case 2's construction with this key and message, cross-checked with javax.crypto
        LogSignature s = LogSignature.of(KEY);
        byte[] m = "what do ya want for nothing?".getBytes(StandardCharsets.UTF_8);
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        assertThat(s.hmac(m)).isEqualTo(mac.doFinal(m));
        // a key longer than SHA-256's block is hashed first, in the pads too
        LogSignature longKey = LogSignature.of("k".repeat(100));
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        sha.update(longKey.innerPad());
        byte[] inner = sha.digest(m);
        sha.update(longKey.outerPad());
        assertThat(sha.digest(inner)).isEqualTo(longKey.hmac(m));
    }

    @Test
    void aShortKeyIsRefusedWithoutItsValue() {
        assertThatThrownBy(() -> LogSignature.of("short-secret")).isInstanceOf(SQLException.class)
                .hasMessageContaining("repl.log.key").hasMessageNotContaining("short-secret")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"));
        assertThatThrownBy(() -> LogSignature.of("")).isInstanceOf(SQLException.class);
        assertThat(String.valueOf(uncheckedOf(KEY))).doesNotContain(KEY);
    }

    private static LogSignature uncheckedOf(String key) {
        try {
            return LogSignature.of(key);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }
}
