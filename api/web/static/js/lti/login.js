// The LTI login's page: on to the LMS when this browser kept the judge's cookie check (set by the
// same answer), else the offer of a new window, where the cookies are the judge's own.
const login = document.getElementById("lti-login");
if (document.cookie.split("; ").includes("lti_cookies=1")) {
  location.replace(login.dataset.next);
} else {
  document.getElementById("lti-login-wait").hidden = true;
  document.getElementById("lti-login-blocked").hidden = false;
}
