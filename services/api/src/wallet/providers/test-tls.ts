/**
 * A self-signed certificate for 127.0.0.1 and its key, for the HTTPS tests of the provider
 * calls only (http.test.ts): a local server presents it, a test trusts it or not. Made once with
 * `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500
 * -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1` (valid until 2126), kept here so the
 * tests need no openssl binary on the machine. It secures nothing.
 */
export const TEST_TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgiSGQ3ptylEkJZfDE
acpC2s8tTFvjk1ucfizHM12zKBShRANCAAQ8LBeZB9x5+o/FJaM/3WMVPKnKDgFI
NA1UZjJCKAOxSfp8I753zBHvKnV0jP/KmNf//NaCInnGq3z5haBQsLnL
-----END PRIVATE KEY-----
`;

export const TEST_TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBjzCCATagAwIBAgIUPPtkcZv5K5f2fa00NA00b6ALeHowCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEyMzEyMTEyNVoYDzIxMjYxMDMw
MTIxMTI1WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQ8LBeZB9x5+o/FJaM/3WMVPKnKDgFINA1UZjJCKAOxSfp8I753zBHv
KnV0jP/KmNf//NaCInnGq3z5haBQsLnLo2QwYjAdBgNVHQ4EFgQUkncEFE39DWCD
eUOHyBM6uABJNA4wHwYDVR0jBBgwFoAUkncEFE39DWCDeUOHyBM6uABJNA4wDwYD
VR0TAQH/BAUwAwEB/zAPBgNVHREECDAGhwR/AAABMAoGCCqGSM49BAMCA0cAMEQC
ICYf19+7QEN1y/iM/bkTYh9q0VaAs4Pcd69UCBeKGeg7AiBkKpN7atLKAZPhqcF/
GWgTiWYu90iqNvzx+bDGhe6xjQ==
-----END CERTIFICATE-----
`;
