package org.topupbatch.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.camel.component.file.remote.SftpConfiguration;
import org.apache.camel.component.file.remote.SftpEndpoint;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;

/** The endpoint the product's sftp component builds; against a server: SftpFoldersE2ETest. */
class SftpFolderComponentTest {

    private static SftpConfiguration configurationOf(String uri) throws Exception {
        try (DefaultCamelContext camel = new DefaultCamelContext()) {
            camel.addComponent(SftpFolderComponent.NAME, new SftpFolderComponent());
            camel.start();
            return ((SftpEndpoint) camel.getEndpoint(uri)).getConfiguration();
        }
    }

    @Test
    void an_absolute_folder_stays_absolute_and_a_relative_one_relative() throws Exception {
        assertThat(configurationOf("sftp://erp@127.0.0.1:2222//srv/out?password=RAW(a&b)").getDirectory()).isEqualTo("/srv/out");
        assertThat(configurationOf("sftp://erp@127.0.0.1:2222/out/topup?password=RAW(a&b)").getDirectory()).isEqualTo("out/topup");
    }

    @Test
    void the_options_of_camel_ftp_are_set_as_on_its_own_component() throws Exception {
        SftpConfiguration c = configurationOf("sftp://erp@127.0.0.1:2222//srv/out?password=RAW(a&b)&strictHostKeyChecking=yes"
                + "&knownHostsFile=/etc/kh&useUserKnownHostsFile=false&preferredAuthentications=password&connectTimeout=4000");
        assertThat(c.getPassword()).isEqualTo("a&b");
        assertThat(c.getStrictHostKeyChecking()).isEqualTo("yes");
        assertThat(c.getKnownHostsFile()).isEqualTo("/etc/kh");
        assertThat(c.isUseUserKnownHostsFile()).isFalse();
        assertThat(c.getPreferredAuthentications()).isEqualTo("password");
        assertThat(c.getConnectTimeout()).isEqualTo(4000);
        assertThat(c.getHost()).isEqualTo("127.0.0.1");
        assertThat(c.getPort()).isEqualTo(2222);
        assertThat(c.getUsername()).isEqualTo("erp");
    }
}
