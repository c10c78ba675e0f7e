import Handlebars from 'handlebars';

/**
 * The HTML pages people see: sign-in and consent, the invitation form, and messages. Unlike the
 * generator's templates these escape every value (Handlebars' default): app names, scopes and
 * states come from outside. Pages load nothing: no scripts, no images, inline style only.
 */

const handlebars = Handlebars.create();

const layout = (body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{title}} · Cadence</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; color: #1d2433; }
h1 { font-size: 1.4rem; }
label { display: block; margin-top: 1rem; font-weight: 600; }
input[type=email], input[type=password] { width: 100%; box-sizing: border-box; padding: .5rem; font-size: 1rem; }
.buttons { display: flex; gap: 1rem; margin-top: 1.5rem; }
button { padding: .5rem 1.25rem; font-size: 1rem; }
.problem { background: #fdecea; border-left: 4px solid #c62828; padding: .5rem .75rem; }
.scopes li { margin: .25rem 0; }
small { color: #5b6478; }
</style>
</head>
<body>
${body}
</body>
</html>
`;

const consentPage = handlebars.compile(
  layout(`<h1>Sign in to allow {{appName}}</h1>
<p><strong>{{appName}}</strong> asks to act for you in your Cadence organisation with these permissions:</p>
<ul class="scopes">
{{#each scopes}}<li><code>{{name}}</code>: {{description}}</li>
{{/each}}</ul>
{{#if problem}}<p class="problem" role="alert">{{problem}}</p>{{/if}}
<form method="post" action="{{action}}">
{{#each fields}}<input type="hidden" name="{{name}}" value="{{value}}">
{{/each}}<label for="login">E-mail address</label>
<input id="login" name="login" type="email" autocomplete="username" required value="{{login}}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="buttons">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>
<p><small>Either way you will be sent back to {{redirectHost}}.</small></p>`),
  { strict: false },
);

const messagePage = handlebars.compile(layout(`<h1>{{title}}</h1>\n<p{{#if problem}} class="problem" role="alert"{{/if}}>{{detail}}</p>`));

const invitationPage = handlebars.compile(
  layout(`<h1>Set your Cadence password</h1>
<p>You will sign in as <strong>{{login}}</strong>.</p>
{{#if problem}}<p class="problem" role="alert">{{problem}}</p>{{/if}}
<form method="post">
<input type="hidden" name="login" value="{{login}}" autocomplete="username">
<label for="password">New password (at least {{minLength}} characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="{{minLength}}">
<div class="buttons"><button type="submit">Set password</button></div>
</form>`),
);

const VARIANTS: Readonly<Record<string, string>> = {
  read: 'read',
  write: 'create and change',
  delete: 'delete',
  all: 'read, create, change and delete',
};

/** `sequenceStates.write` → "create and change sequence states". */
export function describeScope(scope: string): string {
  const [stem = '', variant = ''] = scope.split('.');
  const noun = stem.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return `${VARIANTS[variant] ?? variant} ${noun}`;
}

export interface ConsentView {
  appName: string;
  scopes: readonly string[];
  redirectUri: string;
  /** The authorization request, carried through the form and validated again on submit. */
  fields: ReadonlyArray<{ name: string; value: string }>;
  action: string;
  login?: string;
  problem?: string;
}

export function renderConsent(view: ConsentView): string {
  return consentPage({
    ...view,
    title: `Allow ${view.appName}`,
    redirectHost: new URL(view.redirectUri).host,
    scopes: view.scopes.map((name) => ({ name, description: describeScope(name) })),
  });
}

export function renderMessage(view: { title: string; detail: string; problem: boolean }): string {
  return messagePage(view);
}

export function renderInvitation(view: { login: string; minLength: number; problem?: string }): string {
  return invitationPage({ ...view, title: 'Set your password' });
}
