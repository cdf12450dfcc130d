package org.topupbatch.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.topupbatch.testing.BuiltJar;

/** The standalone server as a real process. */
class SandboxMainTest {

    private static Process launch(String... args) throws Exception {
        String java = BuiltJar.java();
        List<String> command = new java.util.ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "-Dtopup.sandbox.tier=silver", SandboxMain.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).start();
    }

    @Test
    void printsOneLineAndServes() throws Exception {
        Process process = launch("--port", "0");
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertThat(line).matches("Sandbox provider listening on http://127\\.0\\.0\\.1:\\d+ \\(api_key RSL-7F3A9C21\\)");
            assertThat(line).doesNotContain("s3cr3t");
            Matcher m = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)").matcher(line);
            assertThat(m.find()).isTrue();
            SandboxTestClient client = new SandboxTestClient("http://127.0.0.1:" + m.group(1));
            SandboxTestClient.Answer balance = client.balance();
            assertThat(balance.status()).isEqualTo(200);
            assertThat(balance.data().get("tier").textValue()).as("settings from system properties").isEqualTo("silver");
            assertThat(process.isAlive()).isTrue();
        } finally {
            process.destroy();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void badArgumentsExitWithTwo() throws Exception {
        for (String[] args : List.of(new String[] {"--port", "abc"}, new String[] {"--bogus"}, new String[] {"--port"})) {
            Process process = launch(args);
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).isEqualTo(2);
            String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertThat(err.lines().count()).as(err).isEqualTo(1);
            assertThat(err).startsWith("sandbox: ");
        }
    }
}
