// @ts-check
/**
 * Sample provider: log in against an LDAP directory (OpenLDAP, 389 DS, Active Directory...).
 * The client sends {"username", "password"}; the provider binds to the directory as that
 * user, reads the groups the user is a member of, and maps them to roles.
 *
 * Settings (ldap.config.example.json; put bind secrets in AUTH_PROVIDER_CONFIG):
 *   url                 ldap://host:389 or ldaps://host:636 (required)
 *   userDn              the user's DN, {username} standing for the user name, escaped as
 *                       RFC 4514 says: "uid={username},ou=people,dc=example,dc=org" (required)
 *   groupBase           where groups are searched (required)
 *   groupFilter         the group search; {userDn} and {username} are filled in, escaped as
 *                       RFC 4515 says (default "(&(objectClass=groupOfNames)(member={userDn}))")
 *   groupNameAttribute  the attribute that names a group (default "cn")
 *   roleMap             group name -> role name (or list of names); groups not in it give no
 *                       role. Absent: the group names are the role names
 *   emailAttribute      the user's attribute returned as "email" (default "mail")
 *   globalAttributes    user attributes copied into the token's globals: a list, or {attribute: globalName}
 *   startTls            upgrade an ldap:// connection with StartTLS (default false)
 *   tlsOptions          Node TLS options for ldaps:// and StartTLS, e.g. {"ca": "-----BEGIN CERTIFICATE-----…"}
 *   timeoutMs           for connecting and for each operation (default 4000)
 * A user with no mapped group is refused. An empty password is refused before anything is
 * sent: LDAP servers take it as an anonymous ("unauthenticated") bind, which succeeds.
 */
import { Client, Filter } from 'ldapts';

const FAILED = 'Login failed: unknown user name or wrong password.';
const INVALID_CREDENTIALS = 49;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

/**
 * An attribute value made safe inside a DN (RFC 4514, section 2.4): the special characters,
 * a leading space or "#", a trailing space and NUL are escaped, so a user name can never add
 * RDNs or change the DN's structure.
 * @param {string} value
 */
export function escapeDnValue(value) {
  const chars = Array.from(value);
  return chars
    .map((ch, i) => {
      if (ch === '\0') return '\\00';
      if ('\\,+"<>;='.includes(ch)) return `\\${ch}`;
      if (i === 0 && (ch === ' ' || ch === '#')) return `\\${ch}`;
      if (i === chars.length - 1 && ch === ' ') return '\\ ';
      return ch;
    })
    .join('');
}

/**
 * Fills {name} placeholders, each value escaped by `escape`. (A replacer function, so "$" in
 * a value is never read as a replacement pattern.)
 * @param {string} template
 * @param {Record<string, string>} values
 * @param {(value: string) => string} escape
 */
function fill(template, values, escape) {
  return template.replace(/\{(\w+)\}/g, (whole, /** @type {string} */ name) =>
    Object.hasOwn(values, name) ? escape(values[name] ?? '') : whole,
  );
}

/**
 * @param {unknown} value
 * @returns {string[]}
 */
function strings(value) {
  if (Buffer.isBuffer(value)) return [value.toString('utf8')];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  return [];
}

/** @type {import('./types.js').ProviderFactory} */
export default function create() {
  const settings = {
    url: '',
    userDn: '',
    groupBase: '',
    groupFilter: '(&(objectClass=groupOfNames)(member={userDn}))',
    groupNameAttribute: 'cn',
    /** @type {Record<string, string | string[]> | undefined} */
    roleMap: undefined,
    emailAttribute: 'mail',
    /** @type {Record<string, string>} attribute -> global name */
    globalAttributes: {},
    startTls: false,
    /** @type {import('node:tls').ConnectionOptions | undefined} */
    tlsOptions: undefined,
    timeoutMs: 4000,
  };

  return {
    configure(config) {
      const problems = [];
      const text = (/** @type {unknown} */ v) => typeof v === 'string' && v !== '';
      if (!text(config.url) || !/^ldaps?:\/\//.test(/** @type {string} */ (config.url)))
        problems.push('"url": ldap://host:389 or ldaps://host:636');
      if (!text(config.userDn) || !String(config.userDn).includes('{username}'))
        problems.push('"userDn": a DN template with {username}, e.g. "uid={username},ou=people,dc=example,dc=org"');
      if (!text(config.groupBase)) problems.push('"groupBase": the DN under which groups are searched');
      for (const name of ['groupFilter', 'groupNameAttribute', 'emailAttribute'])
        if (config[name] !== undefined && !text(config[name])) problems.push(`"${name}": a non-empty string`);
      if (typeof config.groupFilter === 'string' && !config.groupFilter.includes('{'))
        problems.push('"groupFilter": a filter with {userDn} or {username}');
      const map = config.roleMap;
      const isRoleNames = (/** @type {unknown} */ v) => text(v) || (Array.isArray(v) && v.every(text));
      if (map !== undefined && (typeof map !== 'object' || map === null || Array.isArray(map) || !Object.values(map).every(isRoleNames))) {
        problems.push('"roleMap": an object of group name -> role name (or list of role names)');
      }
      const globals = config.globalAttributes ?? [];
      /** @type {unknown} the setting in its object form, checked next */
      const globalNames = Array.isArray(globals) ? Object.fromEntries(globals.map((/** @type {unknown} */ g) => [g, g])) : globals;
      if (
        typeof globalNames !== 'object' ||
        globalNames === null ||
        !Object.values(globalNames).every((g) => typeof g === 'string' && IDENTIFIER.test(g))
      ) {
        problems.push('"globalAttributes": a list of attribute names (identifiers), or an object of attribute -> global name');
      }
      if (config.startTls !== undefined && typeof config.startTls !== 'boolean') problems.push('"startTls": true or false');
      if (config.timeoutMs !== undefined && (typeof config.timeoutMs !== 'number' || config.timeoutMs < 1))
        problems.push('"timeoutMs": milliseconds');
      if (problems.length > 0) throw new Error(`ldap needs ${problems.join('; ')}`);
      Object.assign(settings, {
        url: config.url,
        userDn: config.userDn,
        groupBase: config.groupBase,
        groupFilter: config.groupFilter ?? settings.groupFilter,
        groupNameAttribute: config.groupNameAttribute ?? settings.groupNameAttribute,
        roleMap: map,
        emailAttribute: config.emailAttribute ?? settings.emailAttribute,
        globalAttributes: /** @type {Record<string, string>} */ (globalNames),
        startTls: config.startTls ?? false,
        tlsOptions: config.tlsOptions,
        timeoutMs: config.timeoutMs ?? settings.timeoutMs,
      });
    },

    async authenticate(payload, context) {
      const { username, password } = payload;
      if (typeof username !== 'string' || username === '' || typeof password !== 'string' || password === '')
        return { errorMessage: FAILED };

      const userDn = fill(settings.userDn, { username }, escapeDnValue);
      const client = new Client({
        url: settings.url,
        timeout: settings.timeoutMs,
        connectTimeout: settings.timeoutMs,
        tlsOptions: settings.tlsOptions,
      });
      try {
        if (settings.startTls) await client.startTLS(settings.tlsOptions ?? {});
        try {
          await client.bind(userDn, password);
        } catch (error) {
          // Unknown user and wrong password are the same answer from the directory, and to the client.
          if (/** @type {{ code?: unknown }} */ (error).code === INVALID_CREDENTIALS) return { errorMessage: FAILED };
          throw error;
        }

        const attributes = [settings.emailAttribute, ...Object.keys(settings.globalAttributes)];
        const {
          searchEntries: [user],
        } = await client.search(userDn, { scope: 'base', attributes });
        const filter = fill(settings.groupFilter, { userDn, username }, (v) => Filter.escape(v));
        const { searchEntries: groups } = await client.search(settings.groupBase, {
          scope: 'sub',
          filter,
          attributes: [settings.groupNameAttribute],
        });

        const groupNames = groups.flatMap((g) => strings(g[settings.groupNameAttribute]));
        const { roleMap } = settings;
        const roleNames = [
          ...new Set(roleMap ? groupNames.flatMap((g) => (Object.hasOwn(roleMap, g) ? strings(roleMap[g]) : [])) : groupNames),
        ];
        if (roleNames.length === 0) {
          context.logger.info('login refused: no group of the user maps to a role', { username, groups: groupNames });
          return { errorMessage: 'Login failed: the account has no role in this API.' };
        }

        /** @type {Record<string, string>} */
        const userData = {};
        for (const [attribute, global] of Object.entries(settings.globalAttributes)) {
          const [value] = strings(user?.[attribute]);
          if (value !== undefined) userData[global] = value;
        }
        const [email] = strings(user?.[settings.emailAttribute]);
        return { roleNames, userIdentifier: username, userData, ...(email ? { userInfo: { email } } : {}) };
      } finally {
        await client.unbind().catch(() => undefined);
      }
    },

    getConfigInfo() {
      const { url, userDn, groupBase, groupFilter, groupNameAttribute, roleMap, startTls } = settings;
      return {
        current: { url, userDn, groupBase, groupFilter, groupNameAttribute, roleMap: roleMap ?? null, startTls },
        fields: [
          { name: 'url', display: 'Directory URL', type: 'text' },
          { name: 'userDn', display: 'User DN template ({username})', type: 'text' },
          { name: 'groupBase', display: 'Group search base', type: 'text' },
          { name: 'groupFilter', display: 'Group filter ({userDn}, {username})', type: 'text' },
          { name: 'roleMap', display: 'Group name -> role name', type: 'text' },
        ],
      };
    },
  };
}
