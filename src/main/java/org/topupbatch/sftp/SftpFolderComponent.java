package org.topupbatch.sftp;

import java.net.URI;
import java.util.Map;
import org.apache.camel.component.file.GenericFileEndpoint;
import org.apache.camel.component.file.remote.SftpComponent;
import org.apache.camel.component.file.remote.SftpConfiguration;
import org.apache.camel.component.file.remote.SftpEndpoint;
import org.apache.camel.component.file.remote.SftpRemoteFile;
import org.apache.camel.spi.annotations.Component;
import org.apache.camel.util.StringHelper;

/**
 * camel-ftp's {@code sftp} component, except that an absolute folder stays absolute: README
 * promises {@code sftp://user@host//srv/out} for the folder /srv/out, but camel-ftp 4.14 makes
 * every starting folder relative to the login folder when it creates the endpoint (FtpUtils
 * .ensureRelativeFtpDirectory, with the WARN "SftpComponent doesn't support absolute paths"), and
 * has no option against it. Its SFTP consumer and producer work with an absolute starting folder
 * (JSch resolves it from "/"), which the end-to-end test SftpFoldersE2ETest checks against a server
 * whose login folder is not "/". A relative folder is built exactly as by camel-ftp.
 *
 * <p>Bound as {@code sftp} wherever the product creates SFTP endpoints: the run's context
 * (config.SftpConfiguration) and once mode's fetch (OnceFetchConfiguration).
 */
@Component(SftpFolderComponent.NAME) // the name camel-ftp's option setters (sftp-endpoint, sftp-component) are found by
public final class SftpFolderComponent extends SftpComponent {

    /** The name it is bound under: the scheme of every SFTP address the product builds. */
    public static final String NAME = "sftp";

    @Override
    protected GenericFileEndpoint<SftpRemoteFile> buildFileEndpoint(String uri, String remaining,
            Map<String, Object> parameters) throws Exception {
        String baseUri = StringHelper.before(uri, "?", uri);
        // as SftpComponent.buildFileEndpoint, without FtpUtils.ensureRelativeFtpDirectory
        SftpConfiguration config = new SftpConfiguration(new URI(baseUri));
        return new SftpEndpoint(uri, this, config);
    }
}
