// Who is signed in: the token box in the header and "Signed in as NAME (role)". A token typed in
// is asked about with GET /me before it is kept, so a typo is never "saved".
import { api, getToken, setToken } from "./api.js";

let user = null; // { id, name, role } of the saved token, once /me has answered

export const currentUser = () => user;

const byId = (id) => document.getElementById(id);

function showUser(text) {
  const who = byId("who");
  who.textContent = text;
  who.hidden = !text;
}

function showState(text, bad) {
  const state = byId("token-state");
  state.textContent = text;
  state.classList.toggle("bad", Boolean(bad));
  byId("token-input").setAttribute("aria-invalid", bad ? "true" : "false");
}

// Asks /me about a token: the user, null when the judge refuses the token, or undefined when
// the judge could not say (no /me on an older judge, the network), so nothing is concluded.
async function whoIs(token) {
  try {
    return await api("/me", { token });
  } catch (error) {
    if (error.status === 401) return null;
    return undefined;
  }
}

function signedIn(found) {
  user = found;
  showUser(`Signed in as ${found.name} (${found.role})`);
}

// The saved token's user, on every page load; a token revoked since it was saved is said so.
export async function loadUser() {
  user = null;
  const token = getToken();
  if (!token) {
    showUser("");
    showState("not set");
    return null;
  }
  const found = await whoIs(token);
  if (found) {
    signedIn(found);
    showState("");
  } else if (found === null) {
    showUser("");
    showState("Your saved token is not valid any more: paste a new one", true);
  } else {
    showUser("");
    showState("saved (the judge could not say whose it is)");
  }
  return user;
}

export function setUpTokenBox(onChange) {
  const form = byId("token-form");
  const input = byId("token-input");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = input.value.trim();
    if (!value) {
      showState("Paste a token first", true);
      return;
    }
    showState("Checking…");
    const found = await whoIs(value);
    if (found === null) {
      showState("That token is not valid", true);
      input.select();
      return;
    }
    setToken(value);
    input.value = "";
    if (found) {
      signedIn(found);
      showState("saved");
    } else {
      showUser("");
      showState("saved (the judge could not check it now)");
    }
    onChange();
  });
  byId("token-clear").addEventListener("click", () => {
    setToken("");
    input.value = "";
    user = null;
    showUser("");
    showState("signed out");
    onChange();
  });
}
